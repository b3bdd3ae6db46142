//! What the session's steps touched so far, for its count of changes
//! ([`crate::agent::changes::count`]).

use std::collections::BTreeSet;

use crate::protocol::CallSnapshot;

/// The paths the session's steps touched so far.
#[derive(Debug, Default)]
pub(crate) struct SessionPaths {
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
