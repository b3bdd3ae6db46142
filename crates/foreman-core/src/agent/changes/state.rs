//! [`Changes`]: what the session's steps changed in the workspace, and what it keeps to take
//! them back — the undo's part ([`Undo`]), the workspace's checkpoints, and the paths its steps
//! touched, for its one count of changes (`count`).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use crate::agent::checkpoints::state::PendingCheckpoint;
use crate::agent::undo::state::Undo;
use crate::checkpoints::Checkpoints;
use crate::protocol::CallSnapshot;

/// What the session changed in the workspace, and what it keeps to take it back.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    /// What the file changes made so far replaced, for `undo_change`.
    pub(crate) undo: Undo,
    /// The workspace's checkpoints, when the session keeps them.
    pub(crate) checkpoints: Option<Arc<Checkpoints>>,
    /// The checkpoint before the last message, while it is taken.
    pub(crate) pending_checkpoint: Option<PendingCheckpoint>,
    /// The most they may take on disk.
    pub(crate) checkpoints_cap: u64,
    /// What the session's steps touched, for its count of changes.
    pub(crate) touched: TouchedPaths,
    /// Removing what writes of ended processes left in the workspace, begun at the start.
    pub(crate) leftovers: Option<tokio::task::JoinHandle<Vec<PathBuf>>>,
}

/// The paths the session's steps touched so far.
#[derive(Debug, Default)]
pub(crate) struct TouchedPaths {
    /// The stored calls of a resumed session were read.
    pub(crate) seeded: bool,
    pub(crate) paths: BTreeSet<String>,
    /// Something was sent: a later empty count is sent too, to clear it.
    pub(crate) reported: bool,
}

/// The paths the checkpoints around `call` saw change (a command, an external tool). A file
/// tool's path is in the store, with its file's content before it.
pub(crate) fn touched(call: &CallSnapshot) -> impl Iterator<Item = &str> {
    call.changes.iter().flatten().map(|c| c.path.as_str())
}
