//! Typed tools: one Rust params struct gives the Rust type, run-time validation (typed
//! deserialisation) and the schema the model sees (via `schemars`, doc comments become
//! descriptions). Every [`TypedTool`] is a [`Tool`].

use std::time::Duration;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::context::ToolContext;
use super::contract::{Tool, UsageNotes};
use super::error::{ParamProblem, ToolError, ToolErrorKind};
use super::kind::ToolKind;
use super::schema::schema_for;
use super::status::StatusUpdate;

/// A tool whose params are a Rust type.
#[async_trait]
pub trait TypedTool: Send + Sync + 'static {
    /// The params; derive `Deserialize` and `JsonSchema`, with a doc comment on every field.
    type Params: DeserializeOwned + JsonSchema + Send + Sync;

    /// See [`Tool::name`].
    fn name(&self) -> &str;

    /// See [`Tool::display_name`].
    fn display_name(&self) -> Option<&str> {
        None
    }

    /// See [`Tool::kind`].
    fn kind(&self) -> ToolKind;

    /// See [`Tool::description`].
    async fn description(&self) -> String;

    /// See [`Tool::usage_notes`].
    fn usage_notes(&self) -> Option<UsageNotes> {
        None
    }

    /// See [`Tool::timeout`].
    fn timeout(&self) -> Option<Duration> {
        None
    }

    /// Checks on the typed params beyond their type.
    async fn check(&self, _params: &Self::Params) -> Result<(), Vec<ParamProblem>> {
        Ok(())
    }

    /// Shows the params streamed so far (they may miss required fields). The default shows them
    /// all in a `WAIT` card; override to show less (e.g. the first lines of a long content).
    async fn preview(&self, partial: &Value, ctx: &ToolContext) -> Result<(), ToolError> {
        ctx.send_status(StatusUpdate::wait().params(partial.clone()))
            .map_err(|e| ToolError::execution_failed(e.to_string()))
    }

    /// Does the work with complete, valid params; reports through `ctx`.
    async fn run(&self, params: Self::Params, ctx: &ToolContext) -> Result<(), ToolError>;
}

/// Deserialises `params` into `P`, turning a serde error into one [`ParamProblem`].
pub fn parse_params<P: DeserializeOwned>(params: Value) -> Result<P, ParamProblem> {
    serde_json::from_value(params).map_err(|e| ParamProblem::new("", e.to_string()))
}

#[async_trait]
impl<T: TypedTool> Tool for T {
    fn name(&self) -> &str {
        TypedTool::name(self)
    }

    fn display_name(&self) -> Option<&str> {
        TypedTool::display_name(self)
    }

    fn kind(&self) -> ToolKind {
        TypedTool::kind(self)
    }

    async fn description(&self) -> String {
        TypedTool::description(self).await
    }

    async fn parameters_schema(&self) -> Value {
        schema_for::<T::Params>()
    }

    fn usage_notes(&self) -> Option<UsageNotes> {
        TypedTool::usage_notes(self)
    }

    fn timeout(&self) -> Option<Duration> {
        TypedTool::timeout(self)
    }

    async fn validate(&self, params: &Value) -> Result<(), Vec<ParamProblem>> {
        let typed: T::Params = parse_params(params.clone()).map_err(|p| vec![p])?;
        self.check(&typed).await
    }

    async fn execute(
        &self,
        params: Value,
        ctx: &ToolContext,
        is_partial: bool,
    ) -> Result<(), ToolError> {
        if is_partial {
            return self.preview(&params, ctx).await;
        }
        let typed: T::Params = parse_params(params).map_err(|p| {
            ToolError::new(ToolErrorKind::InvalidParams, p.to_string())
                .with_details(serde_json::json!([p]))
        })?;
        self.run(typed, ctx).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::context::ToolEnv;
    use crate::tools::{ToolResult, ToolStatus};
    use serde::Deserialize;
    use serde_json::json;
    use tokio::sync::mpsc::unbounded_channel;

    /// Params of the echo tool.
    #[derive(Deserialize, JsonSchema)]
    struct EchoParams {
        /// What to echo back.
        text: String,
    }

    struct Echo;

    #[async_trait]
    impl TypedTool for Echo {
        type Params = EchoParams;
        fn name(&self) -> &str {
            "echo"
        }
        fn kind(&self) -> ToolKind {
            ToolKind::Other
        }
        async fn description(&self) -> String {
            "Echoes text.".into()
        }
        async fn check(&self, params: &EchoParams) -> Result<(), Vec<ParamProblem>> {
            if params.text.is_empty() {
                return Err(vec![ParamProblem::new("/text", "must not be empty")]);
            }
            Ok(())
        }
        async fn run(&self, params: EchoParams, ctx: &ToolContext) -> Result<(), ToolError> {
            ctx.set_result(params.text);
            ctx.send_status(StatusUpdate::success(Value::Null))
                .map_err(|e| ToolError::execution_failed(e.to_string()))
        }
    }

    #[tokio::test]
    async fn schema_validation_and_execution_come_from_one_struct() {
        let tool: &dyn Tool = &Echo;
        let schema = tool.parameters_schema().await;
        assert_eq!(
            schema["properties"]["text"]["description"],
            "What to echo back."
        );
        assert_eq!(schema["required"], json!(["text"]));
        assert!(tool.validate(&json!({"text": 5})).await.is_err());
        assert_eq!(
            tool.validate(&json!({"text": ""})).await,
            Err(vec![ParamProblem::new("/text", "must not be empty")])
        );
        let (tx, _rx) = unbounded_channel();
        let ctx = ToolContext::standalone(ToolEnv::new("/tmp", "s", tx), "echo", "c");
        tool.execute(json!({"text": "hi"}), &ctx, false)
            .await
            .unwrap();
        assert_eq!(ctx.slot().take_result(), Some(ToolResult::text("hi")));
        assert_eq!(ctx.snapshot().status, ToolStatus::Success);
    }

    #[tokio::test]
    async fn partial_invocations_preview_without_running() {
        let (tx, _rx) = unbounded_channel();
        let ctx = ToolContext::standalone(ToolEnv::new("/tmp", "s", tx), "echo", "c");
        Tool::execute(&Echo, json!({"te": null}), &ctx, true)
            .await
            .unwrap();
        assert_eq!(ctx.snapshot().status, ToolStatus::Wait);
        assert_eq!(ctx.snapshot().params, json!({"te": null}));
        assert_eq!(ctx.slot().take_result(), None);
    }
}
