//! `new_task`: hand a self-contained piece of work to a sub-agent. Its output asks the loop to
//! run the sub-agent (`session/subtask.rs`); the sub-agent's summary becomes the call's result.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::listed::Builtin;
use super::session::BuiltinSession;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::ToolKind;
use crate::tools::{CallContext, Control, SubAgentRequest, Tool, ToolError, ToolOutput, arg};

/// Delegate a self-contained piece of work to a sub-agent with its own fresh context. You wait
/// while it works; its final summary is this call's result. The user approves its changes and
/// commands like yours.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTaskParams {
    /// A few words on the task, shown to the user on the card.
    pub description: String,
    /// The complete instructions for the sub-agent: it sees nothing of this conversation, so
    /// include every path, name and constraint it needs.
    pub prompt: String,
    /// The tools the sub-agent may use (a subset of yours); all of yours but `new_task` when
    /// omitted. `attempt_completion` is always included.
    #[serde(default)]
    pub tools: Option<Vec<String>>,
}

/// `new_task`, for the runtime.
#[derive(Debug, Clone, Default)]
pub struct NewTaskTool;

impl Builtin for NewTaskTool {
    const CLAUDE_NAME: Option<&'static str> = Some("Task");

    /// Offered only when the session may start sub-agents.
    fn for_session(_session: &BuiltinSession, sub_agents: bool) -> Option<Self> {
        sub_agents.then_some(Self)
    }
}

impl Tool for NewTaskTool {
    type Input = NewTaskParams;
    const NAME: &'static str = "new_task";
    const KIND: ToolKind = ToolKind::Delegate;

    fn title(&self, args: &Value) -> String {
        arg(args, "description").unwrap_or_default().to_owned()
    }

    /// Starting a sub-agent changes nothing by itself; each of its calls is decided on its own.
    fn facts(&self, _input: &NewTaskParams) -> Result<CallFacts, ToolError> {
        Ok(CallFacts::new(Self::NAME, ActionClass::Control))
    }

    async fn run(
        self: Arc<Self>,
        input: NewTaskParams,
        _ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput {
            control: Some(Control::SubAgent(SubAgentRequest {
                description: input.description,
                prompt: input.prompt,
                tools: input.tools,
            })),
            ..ToolOutput::default()
        })
    }
}
