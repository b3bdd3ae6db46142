-- Why each task of a session ended (the person's Stop, an error, the iteration cap...), so a
-- reopened conversation says it where the live one did: after the message with sequence number
-- `after_seq` (a compaction that shifts the messages shifts these too). `reason` is the
-- protocol's TaskEndReason as JSON.
CREATE TABLE task_ends (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    after_seq  INTEGER NOT NULL,
    reason     TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX task_ends_by_session ON task_ends (session_id, after_seq);
