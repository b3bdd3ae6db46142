//! The model the agent talks to (`state`), what its requests cost ([`spend`]), and another
//! model chosen while the session runs (`model_change`).

pub(super) mod model_change;
pub mod spend;
pub(super) mod state;
