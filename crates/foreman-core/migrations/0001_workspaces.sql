-- Workspaces the person has opened, most recent first on the welcome screen.
CREATE TABLE workspaces (
    id          INTEGER PRIMARY KEY,
    path        TEXT    NOT NULL UNIQUE,
    name        TEXT    NOT NULL,
    last_opened INTEGER NOT NULL -- unix milliseconds
);
CREATE INDEX workspaces_last_opened ON workspaces (last_opened DESC);
