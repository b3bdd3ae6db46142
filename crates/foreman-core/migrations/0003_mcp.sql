-- Workspace MCP servers the person approved, per exact definition (command, args, env, url).
CREATE TABLE mcp_approvals (
    workspace_path  TEXT    NOT NULL,
    server_name     TEXT    NOT NULL,
    definition_hash TEXT    NOT NULL,
    approved_at     INTEGER NOT NULL, -- unix milliseconds
    PRIMARY KEY (workspace_path, server_name, definition_hash)
);
