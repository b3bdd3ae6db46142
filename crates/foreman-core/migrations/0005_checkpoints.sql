-- What a file-changing call replaced, so the person can undo it: the file's bytes before the
-- call (NULL when the call created the file, or once undone) and the SHA-256 of its bytes after,
-- which must still be on disk for the undo to go ahead. `undone_at` (unix ms) once undone. Only
-- the newest changes of each file are kept (rows can be large: a rowid table).
CREATE TABLE checkpoints (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    call_id    TEXT    NOT NULL,
    path       TEXT    NOT NULL, -- workspace-relative, with `/`
    before     BLOB,
    after_hash BLOB    NOT NULL,
    created_at INTEGER NOT NULL,
    undone_at  INTEGER,
    PRIMARY KEY (session_id, call_id)
);
CREATE INDEX checkpoints_by_path ON checkpoints (session_id, path, undone_at);
