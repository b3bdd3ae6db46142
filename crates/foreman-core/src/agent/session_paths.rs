//! What the session's steps touched so far, for its count of changes
//! ([`super::session_changes`]).

use std::collections::BTreeSet;

use crate::protocol::{CallSnapshot, CallState};

/// The paths the session's steps touched so far.
#[derive(Debug, Default)]
pub(crate) struct SessionPaths {
    /// The stored calls of a resumed session were read.
    pub(crate) seeded: bool,
    pub(crate) paths: BTreeSet<String>,
    /// Something was sent: a later empty count is sent too, to clear it.
    pub(crate) reported: bool,
}

/// The paths `call` touched: its file's, once its change went through, and what the checkpoints
/// around it saw change.
pub(crate) fn touched(call: &CallSnapshot) -> impl Iterator<Item = &str> {
    let file = call
        .preview
        .as_ref()
        .filter(|_| call.state == CallState::Succeeded)
        .map(|p| p.path.as_str());
    let listed = call.changes.iter().flatten().map(|c| c.path.as_str());
    file.into_iter().chain(listed)
}
