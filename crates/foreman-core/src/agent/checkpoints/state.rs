//! The checkpoint before a message while it is taken on a blocking thread, beside the request to
//! the model (`checkpointing.rs` starts it and waits for it before the next checkpoint).

use crate::checkpoints::{Checkpoint, CheckpointError};

/// The checkpoint before the user's message `message`, still being taken.
#[derive(Debug)]
pub(crate) struct PendingCheckpoint {
    pub(crate) message: u32,
    pub(crate) job: tokio::task::JoinHandle<Result<Checkpoint, CheckpointError>>,
}
