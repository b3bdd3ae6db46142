//! The model's context.

pub mod compaction;
pub(super) mod notes;
pub mod prompt;
pub(super) mod state;
pub mod window;
