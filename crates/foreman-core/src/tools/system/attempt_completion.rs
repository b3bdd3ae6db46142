//! `attempt_completion`: the model declares the task done; the agent loop ends on it.

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::tools::{StatusUpdate, ToolContext, ToolError, ToolKind, TypedTool};

/// The name of the completion tool.
pub const ATTEMPT_COMPLETION: &str = "attempt_completion";

/// Params of `attempt_completion`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct AttemptCompletionParams {
    /// A summary of what was done, for the person; final, not a question.
    pub result: String,
}

/// Declares the task complete.
#[derive(Debug, Clone, Copy, Default)]
pub struct AttemptCompletion;

#[async_trait]
impl TypedTool for AttemptCompletion {
    type Params = AttemptCompletionParams;

    fn name(&self) -> &str {
        ATTEMPT_COMPLETION
    }

    fn display_name(&self) -> Option<&str> {
        Some("Complete task")
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Think
    }

    async fn description(&self) -> String {
        "Declare the task complete once every step is done and verified. Give the person a \
         final summary of what was done in `result`. This ends your turn."
            .to_owned()
    }

    async fn run(
        &self,
        params: AttemptCompletionParams,
        ctx: &ToolContext,
    ) -> Result<(), ToolError> {
        ctx.set_result(json!({"ok": true, "completed": true}));
        ctx.send_status(
            StatusUpdate::success(json!({"result": params.result}))
                .params(json!({"result": params.result})),
        )
        .map_err(|e| ToolError::execution_failed(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{Tool, ToolEnv, ToolResult, ToolStatus, parameters_without_description};
    use tokio::sync::mpsc::unbounded_channel;

    #[tokio::test]
    async fn completes_with_the_summary_in_the_card() {
        let tool = AttemptCompletion;
        assert!(parameters_without_description(&tool.parameters_schema().await).is_empty());
        let (tx, _rx) = unbounded_channel();
        let ctx = ToolContext::standalone(ToolEnv::new("/ws", "s", tx), ATTEMPT_COMPLETION, "c");
        tool.execute(json!({"result": "Fixed the bug."}), &ctx, false)
            .await
            .unwrap();
        let card = ctx.snapshot();
        assert_eq!(card.status, ToolStatus::Success);
        assert_eq!(card.result, Some(json!({"result": "Fixed the bug."})));
        assert_eq!(
            ctx.slot().take_result(),
            Some(ToolResult::Json(json!({"ok": true, "completed": true})))
        );
    }
}
