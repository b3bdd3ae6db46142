//! What the engine waits on besides its own work ([`state`]: the user's ops and the workspace
//! watcher's batches) and how it answers the ops that come between tasks or while it waits for
//! something else (`ops`).

pub(super) mod ops;
pub mod state;
