//! The model's context.

pub mod compaction;
pub(super) mod notes;
pub mod prompt;
pub mod window;
