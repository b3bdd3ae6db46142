//! What a call gives back: the text for the model, a summary of what it did for the user, and,
//! for the system tools, what the loop does next.

use serde_json::Value;

/// A finished call.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolOutput {
    /// What the model reads.
    pub text: String,
    /// What the call did, for the card once it is done (`src/main.rs · lines 1–200 of
    /// 1,204)`), beside its title (what it acted on).
    pub summary: Option<String>,
    /// The tool ran but reports a failure in its own words (a command's non-zero exit).
    pub failed: bool,
    /// What the loop does next.
    pub control: Option<Control>,
}

impl ToolOutput {
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            ..Self::default()
        }
    }

    #[must_use]
    pub fn summarised(mut self, summary: impl Into<String>) -> Self {
        self.summary = Some(summary.into());
        self
    }
}

/// What a system tool asks the loop to do. The scheduler acts on this, never on a tool's name.
#[derive(Debug, Clone, PartialEq)]
pub enum Control {
    /// The task is done, with this summary for the user.
    Complete { summary: String },
    /// Run a sub-agent; its final summary becomes the call's result.
    SubAgent(SubAgentRequest),
    /// The task list is now this (the JSON array of the `todo_write` call).
    Todos(Value),
}

/// A sub-agent to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubAgentRequest {
    /// A few words on the card.
    pub description: String,
    /// Everything the sub-agent is told.
    pub prompt: String,
    /// The tools it may use; all of the parent's but `new_task` when `None`.
    pub tools: Option<Vec<String>>,
}
