//! Checkpoints.

pub(super) mod checkpointing;
pub(super) mod state;
