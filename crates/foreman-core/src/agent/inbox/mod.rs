//! The inbox.

pub(super) mod ops;
pub mod state;
