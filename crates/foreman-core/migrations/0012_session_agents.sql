-- The external agent that does a session's work over ACP (NULL: Foreman's own), and the agent's
-- own id of the session, so that a restarted agent loads it again.
ALTER TABLE sessions ADD COLUMN agent TEXT;
ALTER TABLE sessions ADD COLUMN agent_session TEXT;
