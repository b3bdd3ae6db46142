//! `attempt_completion`: the model says the task is done. Its output tells the loop to end the
//! task with the summary.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::listed::Builtin;
use super::session::BuiltinSession;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::{ArgsView, ToolKind};
use crate::tools::{CallContext, Control, Tool, ToolError, ToolOutput};

/// Call this when the task is done, with a short summary of what you did for the user.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct AttemptCompletionParams {
    /// What was done.
    pub result: String,
}

/// The text the model gets for its `attempt_completion` call.
pub const COMPLETED_TEXT: &str = "The task is marked complete.";

/// `attempt_completion`, for the runtime.
#[derive(Debug, Clone, Default)]
pub struct AttemptCompletionTool;

impl Builtin for AttemptCompletionTool {
    fn for_session(_session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self)
    }
}

impl Tool for AttemptCompletionTool {
    type Input = AttemptCompletionParams;
    const NAME: &'static str = "attempt_completion";
    const KIND: ToolKind = ToolKind::Complete;

    fn view(&self) -> ArgsView {
        ArgsView::Title
    }

    fn title(&self, _args: &Value) -> String {
        "task complete".to_owned()
    }

    fn facts(&self, _input: &AttemptCompletionParams) -> Result<CallFacts, ToolError> {
        Ok(CallFacts::new(Self::NAME, ActionClass::Control))
    }

    async fn run(
        self: Arc<Self>,
        input: AttemptCompletionParams,
        _ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput {
            control: Some(Control::Complete {
                summary: input.result,
            }),
            ..ToolOutput::text(COMPLETED_TEXT)
        })
    }
}
