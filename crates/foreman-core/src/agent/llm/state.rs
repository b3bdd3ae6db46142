//! [`Llm`]: the model the agent talks to, its limits, and what its requests cost ([`Spend`]).
//! The user may choose another one while the session runs (`model_change.rs`).

use std::sync::Arc;

use super::spend::Spend;
use crate::providers::{Limits, Provider};

/// The model the agent talks to.
#[derive(Debug)]
pub(crate) struct Llm {
    pub(crate) provider: Arc<dyn Provider>,
    /// The configured provider without the text protocol (for requests without tools).
    pub(crate) plain_provider: Arc<dyn Provider>,
    pub(crate) model: String,
    pub(crate) limits: Limits,
    /// Tokens the history may take before it is compacted.
    pub(crate) context_budget: usize,
    /// Tokens of the context window kept free for the answer (for a new model's budget).
    pub(crate) context_reserve: usize,
    pub(crate) spend: Spend,
}
