//! The model.

pub(super) mod model_change;
pub mod spend;
