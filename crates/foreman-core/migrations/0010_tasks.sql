-- Tasks: a session (same id) with a place to work. `workspace_path` is the folder the person
-- opened; `path` is where the task works (its worktree, or that folder). `state` is what the
-- store knows: `active`, `merged` or `discarded` (running, waiting, ready and failed come from
-- the running session and its last task end). `merge` is the last merge's progress as JSON
-- (the protocol's MergeProgress), `merge_at` when it last changed. A discarded task's work is
-- kept under the repository ref `trash_ref` until `discarded_at` + 14 days.
CREATE TABLE tasks (
    id             TEXT    PRIMARY KEY,
    workspace_path TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    place          TEXT    NOT NULL CHECK (place IN ('folder', 'worktree')),
    path           TEXT    NOT NULL,
    branch         TEXT,
    base           TEXT    NOT NULL,
    base_commit    TEXT,
    state          TEXT    NOT NULL DEFAULT 'active',
    merge          TEXT,
    merge_at       INTEGER,
    note           TEXT,
    port           INTEGER,
    trash_ref      TEXT,
    discarded_at   INTEGER,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    UNIQUE (workspace_path, name)
);
CREATE INDEX tasks_by_workspace ON tasks (workspace_path, created_at);
