-- The user's consent to a workspace's hooks, pinned to the exact set (and the scripts it names)
-- by a hash: a set that changed needs consent again.
CREATE TABLE hook_consents (
    workspace_path TEXT NOT NULL,
    hooks_hash     TEXT NOT NULL,
    approved_at    INTEGER NOT NULL,
    PRIMARY KEY (workspace_path, hooks_hash)
);
