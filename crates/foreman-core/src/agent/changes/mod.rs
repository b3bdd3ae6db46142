//! Changes.

pub(super) mod count;
pub(super) mod state;
