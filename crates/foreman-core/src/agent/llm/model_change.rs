//! [`Op::SetModel`](crate::protocol::Op::SetModel): the user chose another model (or thinking
//! setting, or answer limit) for a running session. The next request uses it, with its context window for the
//! compaction threshold and the status bar, and its prices for the cost; the provider stays.

use crate::agent::context::window as context_window;
use crate::agent::engine::Engine;
use crate::protocol::{EventMsg, ReasoningEffort};
use crate::providers::context_windows::{DEFAULT_CONTEXT_WINDOW, context_window_of};

/// What [`Op::SetModel`](crate::protocol::Op::SetModel) asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ModelChoice {
    pub(crate) model: String,
    pub(crate) context_window: Option<u32>,
    pub(crate) thinking_budget: Option<u32>,
    pub(crate) reasoning_effort: Option<ReasoningEffort>,
    /// The answer's output limit, thinking not counted; `None` keeps the session's.
    pub(crate) max_tokens: Option<u32>,
}

impl Engine {
    /// Switches to `choice` from the next request on, or says why not (the session keeps its
    /// model then).
    pub(crate) fn set_model(&mut self, choice: ModelChoice) {
        let model = choice.model.trim();
        let mut limits = self.llm.limits.clone();
        if let Some(answer) = choice.max_tokens {
            limits = limits.with_thinking_budget(None);
            limits.max_tokens = answer;
        }
        let limits = limits.with_thinking_budget(choice.thinking_budget);
        let problem = if model.is_empty() {
            Some("No model was given.".to_owned())
        } else {
            limits.problem()
        };
        if let Some(problem) = problem {
            self.events.emit_session(EventMsg::Error {
                message: format!("The model was not changed: {problem}"),
            });
            return;
        }
        let known = choice
            .context_window
            .and_then(|w| usize::try_from(w).ok())
            .or_else(|| context_window_of(model));
        let window = known.unwrap_or(DEFAULT_CONTEXT_WINDOW);
        self.llm.model = model.to_owned();
        self.llm.limits = crate::providers::Limits {
            reasoning_effort: choice.reasoning_effort,
            ..limits
        };
        self.llm.context_budget = context_window::budget(window, self.llm.context_reserve);
        self.llm
            .spend
            .set_context_window(known.map_or(0, |w| u64::try_from(w).unwrap_or(u64::MAX)));
        tracing::info!(model = %self.llm.model, window, "model changed");
        self.events.emit_session(EventMsg::ModelChanged {
            model: self.llm.model.clone(),
            usage: self.llm.spend.summary(&self.llm.model),
        });
    }
}
