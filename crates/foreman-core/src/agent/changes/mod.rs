//! What the session changed in the workspace: `state` holds the undo, the checkpoints and the
//! paths its steps touched; `count` sends the session's one count of changed files.

pub(super) mod count;
pub(super) mod state;
