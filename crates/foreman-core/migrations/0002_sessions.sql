-- Agent sessions and everything needed to resume one after a crash.
CREATE TABLE sessions (
    id             TEXT    PRIMARY KEY,
    workspace_path TEXT    NOT NULL,
    title          TEXT    NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL, -- unix milliseconds
    updated_at     INTEGER NOT NULL,
    todos          TEXT    NOT NULL DEFAULT '[]' -- JSON: the task list from todo_write
);
CREATE INDEX sessions_by_workspace ON sessions (workspace_path, updated_at DESC);

-- The model-facing history, exactly as sent: one JSON message per row, in order.
CREATE TABLE messages (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    role       TEXT    NOT NULL,
    content    TEXT    NOT NULL, -- JSON
    tokens     INTEGER,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

-- Tool calls with their scheduler state and the person-facing status (ToolInfo) as JSON.
CREATE TABLE tool_calls (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    call_id    TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    state      TEXT    NOT NULL,
    info       TEXT    NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, call_id)
) WITHOUT ROWID;

-- Approval rules: allow / ask / deny patterns such as `bash(cargo test*)`.
CREATE TABLE approval_rules (
    id             INTEGER PRIMARY KEY,
    workspace_path TEXT    NOT NULL,
    action         TEXT    NOT NULL CHECK (action IN ('allow', 'ask', 'deny')),
    pattern        TEXT    NOT NULL,
    created_at     INTEGER NOT NULL,
    UNIQUE (workspace_path, action, pattern)
);

-- Token usage per model request.
CREATE TABLE usage (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    model       TEXT    NOT NULL,
    input       INTEGER NOT NULL,
    output      INTEGER NOT NULL,
    cache_read  INTEGER NOT NULL,
    cache_write INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX usage_by_session ON usage (session_id);
