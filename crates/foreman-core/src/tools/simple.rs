//! [`simple_tool`]: a tool from a typed params struct plus an async function, for stateless tools.

use std::future::Future;
use std::marker::PhantomData;

use async_trait::async_trait;
use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::context::ToolContext;
use super::contract::UsageNotes;
use super::error::ToolError;
use super::kind::ToolKind;
use super::typed::TypedTool;

type RunFn<P> = dyn Fn(P, ToolContext) -> BoxFuture<'static, Result<(), ToolError>> + Send + Sync;

/// A stateless typed tool made by [`simple_tool`].
pub struct SimpleTool<P> {
    name: String,
    display_name: Option<String>,
    kind: ToolKind,
    description: String,
    usage_notes: Option<UsageNotes>,
    run: Box<RunFn<P>>,
    params: PhantomData<fn() -> P>,
}

/// Makes a tool named `name` from an async function of its params and (a clone of) its context.
///
/// ```
/// # use foreman_core::tools::{simple_tool, ToolKind, ToolContext, ToolError};
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Params {
///     /// Who to greet.
///     name: String,
/// }
/// let tool = simple_tool("greet", ToolKind::Other, "Greets someone.", |p: Params, ctx: ToolContext| {
///     async move {
///         let greeting = format!("Hello, {}!", p.name);
///         ctx.set_result(greeting);
///         Ok::<(), ToolError>(())
///     }
/// });
/// ```
pub fn simple_tool<P, F, Fut>(
    name: &str,
    kind: ToolKind,
    description: &str,
    run: F,
) -> SimpleTool<P>
where
    P: DeserializeOwned + JsonSchema + Send + Sync + 'static,
    F: Fn(P, ToolContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), ToolError>> + Send + 'static,
{
    SimpleTool {
        name: name.to_owned(),
        display_name: None,
        kind,
        description: description.to_owned(),
        usage_notes: None,
        run: Box::new(move |params, ctx| Box::pin(run(params, ctx))),
        params: PhantomData,
    }
}

impl<P> SimpleTool<P> {
    #[must_use]
    pub fn with_display_name(mut self, display_name: &str) -> Self {
        self.display_name = Some(display_name.to_owned());
        self
    }

    #[must_use]
    pub fn with_usage_notes(mut self, notes: UsageNotes) -> Self {
        self.usage_notes = Some(notes);
        self
    }
}

#[async_trait]
impl<P> TypedTool for SimpleTool<P>
where
    P: DeserializeOwned + JsonSchema + Send + Sync + 'static,
{
    type Params = P;

    fn name(&self) -> &str {
        &self.name
    }

    fn display_name(&self) -> Option<&str> {
        self.display_name.as_deref()
    }

    fn kind(&self) -> ToolKind {
        self.kind
    }

    async fn description(&self) -> String {
        self.description.clone()
    }

    fn usage_notes(&self) -> Option<UsageNotes> {
        self.usage_notes.clone()
    }

    async fn run(&self, params: P, ctx: &ToolContext) -> Result<(), ToolError> {
        (self.run)(params, ctx.clone()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::context::ToolEnv;
    use crate::tools::{Tool, ToolResult};
    use serde::Deserialize;
    use serde_json::json;
    use tokio::sync::mpsc::unbounded_channel;

    /// Two numbers.
    #[derive(Deserialize, JsonSchema)]
    struct AddParams {
        /// The first number.
        a: i64,
        /// The second number.
        b: i64,
    }

    #[tokio::test]
    async fn simple_tools_run_their_function_with_typed_params() {
        let tool = simple_tool(
            "add",
            ToolKind::Think,
            "Adds.",
            |p: AddParams, ctx: ToolContext| async move {
                let sum = p.a + p.b;
                ctx.set_result(json!({"sum": sum}));
                Ok(())
            },
        )
        .with_display_name("Add")
        .with_usage_notes(UsageNotes::on_first_use("Only integers."));
        assert_eq!(Tool::name(&tool), "add");
        assert_eq!(Tool::display_name(&tool), Some("Add"));
        assert_eq!(
            Tool::usage_notes(&tool).map(|n| n.text),
            Some("Only integers.".to_owned())
        );
        assert_eq!(Tool::description(&tool).await, "Adds.");
        let schema = tool.parameters_schema().await;
        assert_eq!(
            schema["properties"]["b"]["description"],
            "The second number."
        );
        let (tx, _rx) = unbounded_channel();
        let ctx = ToolContext::standalone(ToolEnv::new("/tmp", "s", tx), "add", "c");
        tool.execute(json!({"a": 2, "b": 3}), &ctx, false)
            .await
            .unwrap();
        assert_eq!(
            ctx.slot().take_result(),
            Some(ToolResult::Json(json!({"sum": 5})))
        );
    }
}
