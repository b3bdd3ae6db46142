//! Persist.

pub(super) mod saves;
pub(crate) mod state;
