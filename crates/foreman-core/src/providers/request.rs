//! What a provider is asked: model, system prompt, conversation, tools and limits.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::message::Message;

/// A tool the model may call, in the provider-facing shape (name, description, JSON Schema of
/// its input). The tool manager produces exactly these three fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

/// Output limits and sampling settings of one request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Maximum output tokens.
    pub max_tokens: u32,
    /// Sampling temperature; `None` leaves the provider's default.
    #[serde(default)]
    pub temperature: Option<f32>,
    /// Extended-thinking budget in tokens (Anthropic); `None` disables thinking.
    #[serde(default)]
    pub thinking_budget: Option<u32>,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_tokens: 8192,
            temperature: None,
            thinking_budget: None,
        }
    }
}

/// One request to a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderRequest {
    pub model: String,
    /// The system prompt (may be empty).
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolDefinition>,
    #[serde(default)]
    pub limits: Limits,
}

impl ProviderRequest {
    /// A request with default limits and no tools.
    pub fn new(
        model: impl Into<String>,
        system: impl Into<String>,
        messages: Vec<Message>,
    ) -> Self {
        Self {
            model: model.into(),
            system: system.into(),
            messages,
            tools: Vec::new(),
            limits: Limits::default(),
        }
    }

    /// The same request with these tools.
    pub fn with_tools(mut self, tools: Vec<ToolDefinition>) -> Self {
        self.tools = tools;
        self
    }

    /// The same request with these limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}
