-- Whole-workspace checkpoints: which commit of the workspace's shadow repository records the
-- workspace at which step of a session. `kind` is `message` (before the user's message number
-- `message`), `call` (before the call `call_id` ran), `after` (after it), `task_end` or `rewind`
-- (the workspace just before a rewind, so the rewind can be undone). `skipped` lists, as JSON,
-- the files the checkpoint left out.
CREATE TABLE workspace_checkpoints (
    id         INTEGER PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    call_id    TEXT,
    message    INTEGER,
    commit_id  TEXT    NOT NULL,
    skipped    TEXT    NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL
);
CREATE INDEX workspace_checkpoints_by_session ON workspace_checkpoints (session_id, id);
