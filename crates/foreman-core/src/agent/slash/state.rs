//! [`SlashTask`]: what a command's front matter changed for the task it started (its `model`,
//! and the tools its `allowed-tools` leave the model), kept so the task's end puts them back.

use crate::providers::ToolDefinition;

/// What the running task's command changed; empty when it changed nothing.
#[derive(Debug, Default)]
pub(crate) struct SlashTask {
    /// The session's model before the command's, and the command's.
    pub(crate) model: Option<(String, String)>,
    /// Every tool the frame offered before `allowed-tools` left some out.
    pub(crate) definitions: Option<Vec<ToolDefinition>>,
}

impl SlashTask {
    /// Whether the offered tools are limited: a call of another tool is refused.
    pub(crate) fn limits_tools(&self) -> bool {
        self.definitions.is_some()
    }
}
