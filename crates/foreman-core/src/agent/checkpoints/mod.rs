//! The engine's whole-workspace checkpoints ([`crate::checkpoints`]) and the rewind
//! (`checkpointing`); `state` is the checkpoint before a message while it is taken.

pub(super) mod checkpointing;
pub(super) mod state;
