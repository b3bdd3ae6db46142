//! Storing a running session: [`state`] does the writes and returns their errors, `saves`
//! reports them to the user and lets the work go on.

pub(super) mod saves;
pub(crate) mod state;
