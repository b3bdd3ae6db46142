//! What a provider is asked: model, system prompt, conversation, tools and limits.

pub use foreman_protocol::settings::{
    DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_THINKING_BUDGET, ReasoningEffort,
};
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
    /// Maximum output tokens, thinking included (the answer's own room is this less the
    /// thinking budget, from 1 to [`MAX_MAX_TOKENS`]).
    pub max_tokens: u32,
    /// Sampling temperature; `None` leaves the provider's default.
    #[serde(default)]
    pub temperature: Option<f32>,
    /// Extended-thinking budget in tokens (Anthropic); `None` disables thinking. At least
    /// [`MIN_THINKING_BUDGET`] and less than `max_tokens`.
    #[serde(default)]
    pub thinking_budget: Option<u32>,
    /// How hard a reasoning model thinks (OpenAI `reasoning_effort`); `None` sends nothing.
    #[serde(default)]
    pub reasoning_effort: Option<ReasoningEffort>,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_tokens: DEFAULT_MAX_TOKENS,
            temperature: None,
            thinking_budget: None,
            reasoning_effort: None,
        }
    }
}

impl Limits {
    /// The same limits thinking with `budget` tokens (`None`: not at all). Thinking counts
    /// against `max_tokens`, so it grows by the budget: the answer keeps the room it had.
    pub fn with_thinking_budget(mut self, budget: Option<u32>) -> Self {
        let answer = match self.thinking_budget {
            Some(old) => self.max_tokens.saturating_sub(old),
            None => self.max_tokens,
        };
        self.max_tokens = budget.map_or(answer, |b| answer.saturating_add(b));
        self.thinking_budget = budget;
        self
    }

    /// What the provider would refuse in these limits, for the user; `None` when they can be
    /// sent.
    pub fn problem(&self) -> Option<String> {
        let answer = self
            .max_tokens
            .saturating_sub(self.thinking_budget.unwrap_or(0));
        if let Some(budget) = self.thinking_budget
            && budget >= self.max_tokens
        {
            return Some(format!(
                "A thinking budget of {budget} tokens must be less than the output limit \
                 (max_tokens, {}).",
                self.max_tokens
            ));
        }
        if let Some(problem) = foreman_protocol::settings::max_tokens_problem(answer) {
            return Some(problem);
        }
        let budget = self.thinking_budget?;
        foreman_protocol::settings::thinking_budget_problem(budget)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thinking_budget_adds_to_the_output_limit_and_is_checked() {
        let thinking = Limits::default().with_thinking_budget(Some(4_096));
        assert_eq!(thinking.max_tokens, DEFAULT_MAX_TOKENS + 4_096);
        assert_eq!(thinking.problem(), None);
        let changed = thinking.clone().with_thinking_budget(Some(2_048));
        assert_eq!(changed.max_tokens, DEFAULT_MAX_TOKENS + 2_048);
        let off = changed.with_thinking_budget(None);
        assert_eq!(
            (off.max_tokens, off.thinking_budget),
            (DEFAULT_MAX_TOKENS, None)
        );

        let no_room = Limits {
            max_tokens: 0,
            ..Limits::default()
        };
        assert_eq!(
            no_room.problem().unwrap(),
            "The answer needs room: allow at least 1 token."
        );
        let huge = Limits {
            max_tokens: MAX_MAX_TOKENS + 1,
            ..Limits::default()
        };
        assert!(
            huge.problem().unwrap().contains("at most 128000"),
            "{huge:?}"
        );
        let thinking_on_top = Limits {
            max_tokens: MAX_MAX_TOKENS,
            ..Limits::default()
        }
        .with_thinking_budget(Some(32_000));
        assert_eq!(
            thinking_on_top.problem(),
            None,
            "thinking is not the answer's room"
        );

        let too_small = Limits::default().with_thinking_budget(Some(100));
        assert!(too_small.problem().unwrap().contains("at least 1024"));
        let too_large = Limits {
            max_tokens: 4_000,
            thinking_budget: Some(4_000),
            ..Limits::default()
        };
        assert_eq!(
            too_large.problem().unwrap(),
            "A thinking budget of 4000 tokens must be less than the output limit (max_tokens, 4000)."
        );
    }
}
