//! `new_task`: delegates a task to a child agent through the injected
//! [`SubAgentRunner`](crate::tools::SubAgentRunner).

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::tools::{
    StatusUpdate, SubAgentRequest, ToolContext, ToolError, ToolErrorKind, ToolKind, TypedTool,
};

/// The name of the delegation tool.
pub const NEW_TASK: &str = "new_task";

/// Params of `new_task`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct NewTaskParams {
    /// A short title of the sub-task, shown to the person (e.g. "Write tests for the parser").
    pub description: String,
    /// Complete instructions for the child agent, including all context it needs; it does not
    /// see this conversation.
    pub prompt: String,
}

/// Runs a child agent on a sub-task and returns its report.
#[derive(Debug, Clone, Copy, Default)]
pub struct NewTask;

fn status_error(e: impl std::fmt::Display) -> ToolError {
    ToolError::execution_failed(e.to_string())
}

#[async_trait]
impl TypedTool for NewTask {
    type Params = NewTaskParams;

    fn name(&self) -> &str {
        NEW_TASK
    }

    fn display_name(&self) -> Option<&str> {
        Some("Delegate task")
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Other
    }

    async fn description(&self) -> String {
        "Delegate a self-contained sub-task to a child agent that works in the same workspace \
         and reports back when done. Give it complete instructions in `prompt`."
            .to_owned()
    }

    async fn run(&self, params: NewTaskParams, ctx: &ToolContext) -> Result<(), ToolError> {
        let Some(runner) = ctx.env().sub_agent().cloned() else {
            return Err(ToolError::new(
                ToolErrorKind::ExecutionFailed,
                "Sub-tasks are not available in this session: no sub-agent runner is configured.",
            )
            .with_suggestion("Do the sub-task yourself with the other tools."));
        };
        ctx.send_status(
            StatusUpdate::doing()
                .params(json!({"description": params.description}))
                .tip(format!("Running sub-task: {}", params.description)),
        )
        .map_err(status_error)?;
        let request = SubAgentRequest {
            parent_session_id: ctx.session_id().to_owned(),
            parent_call_id: ctx.call_id().to_owned(),
            description: params.description,
            prompt: params.prompt,
        };
        let report = runner.run(request, ctx.cancellation().clone()).await?;
        ctx.set_result(report);
        ctx.send_status(StatusUpdate::success(serde_json::Value::Null))
            .map_err(status_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{SubAgentRunner, Tool, ToolEnv, ToolResult, parameters_without_description};
    use std::sync::{Arc, Mutex};
    use tokio::sync::mpsc::unbounded_channel;
    use tokio_util::sync::CancellationToken;

    #[derive(Default)]
    struct Recorder(Mutex<Vec<SubAgentRequest>>);

    #[async_trait]
    impl SubAgentRunner for Recorder {
        async fn run(
            &self,
            request: SubAgentRequest,
            _cancel: CancellationToken,
        ) -> Result<String, ToolError> {
            let report = format!("done: {}", request.description);
            self.0.lock().unwrap().push(request);
            Ok(report)
        }
    }

    fn args() -> serde_json::Value {
        json!({"description": "Write tests", "prompt": "Add tests for parser.rs"})
    }

    #[tokio::test]
    async fn delegates_to_the_injected_runner() {
        assert!(parameters_without_description(&NewTask.parameters_schema().await).is_empty());
        let recorder = Arc::new(Recorder::default());
        let (tx, _rx) = unbounded_channel();
        let env = ToolEnv::new("/ws", "parent", tx).with_sub_agent(recorder.clone());
        let ctx = ToolContext::standalone(env, NEW_TASK, "call-9");
        NewTask.execute(args(), &ctx, false).await.unwrap();
        assert_eq!(
            ctx.slot().take_result(),
            Some(ToolResult::text("done: Write tests"))
        );
        let seen = recorder.0.lock().unwrap();
        assert_eq!(seen[0].parent_session_id, "parent");
        assert_eq!(seen[0].parent_call_id, "call-9");
        assert_eq!(seen[0].prompt, "Add tests for parser.rs");
    }

    #[tokio::test]
    async fn without_a_runner_the_model_gets_a_clear_error() {
        let (tx, _rx) = unbounded_channel();
        let ctx = ToolContext::standalone(ToolEnv::new("/ws", "s", tx), NEW_TASK, "c");
        let error = NewTask.execute(args(), &ctx, false).await.unwrap_err();
        assert_eq!(error.kind, ToolErrorKind::ExecutionFailed);
        assert!(error.message.contains("no sub-agent runner"));
    }
}
