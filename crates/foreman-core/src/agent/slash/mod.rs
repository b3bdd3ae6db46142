//! Slash.

pub(super) mod input;
pub(super) mod state;
