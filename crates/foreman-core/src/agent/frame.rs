//! [`Frame`]: what the loop runs on that is the agent's own. The session's agent has one; a
//! sub-agent gets a fresh one, swapped in for its call (see `subtask`).

use std::collections::HashMap;

use crate::project_rules::NestedRules;
use crate::providers::{Message, ToolDefinition};

/// What the loop runs on that is the agent's own: a child gets a fresh one.
#[derive(Debug, Default)]
pub(crate) struct Frame {
    pub history: Vec<Message>,
    pub system: String,
    pub definitions: Vec<ToolDefinition>,
    pub max_iterations: u32,
    pub failures: HashMap<String, u32>,
    pub depth: u32,
    /// The nested rule files this agent was given (with the results of calls touching their
    /// directories).
    pub nested_rules: NestedRules,
}
