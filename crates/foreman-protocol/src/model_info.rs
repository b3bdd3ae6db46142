//! [`ModelInfo`]: one model a provider offers, as its models endpoint describes it, for the
//! settings' model picker.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A model the provider lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ModelInfo {
    /// The name requests use (`claude-sonnet-4-5`, `openai/gpt-4o`, `qwen2.5-coder:14b`).
    pub id: String,
    /// A friendlier name, when the server gives one different from the id.
    pub display_name: Option<String>,
    /// The context window in tokens, when the server tells it.
    pub context_window: Option<u32>,
}

impl ModelInfo {
    /// A model known by its id only.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            display_name: None,
            context_window: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_up_to_date() {
        crate::bindings::assert_bindings_current::<ModelInfo>();
    }
}
