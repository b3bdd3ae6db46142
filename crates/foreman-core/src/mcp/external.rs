//! [`ExternalTool`]: an MCP or discovered tool in the session's one tool runtime. Its input is
//! whatever JSON the server's schema allows (the pipeline has validated it), its facts come from
//! the server's annotations (`readOnlyHint` reads freely, `destructiveHint` always asks), and a
//! call goes through the hub, which checks again that the tool can run. A discovered tool's call
//! command is sandboxable: it runs in the session's sandbox, as a `bash` command does; an MCP
//! server's tool runs inside the server, which its own setting confines.

use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use serde_json::Value;

use super::tool::RemoteTool;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::{ArgsView, ToolKind};
use crate::providers::ToolDefinition;
use crate::sandbox::SandboxPolicy;
use crate::tools::{
    AnyTool, CallContext, Input, OutputSink, ProposedChange, ToolError, ToolOutput,
    clean_for_provider, codes,
};

/// How much longer than the hub's own limit the runtime waits, so that the hub reports the
/// timeout (and tells the server) itself.
const MARGIN: Duration = Duration::from_secs(10);

/// What runs an external tool's call: the hub, which checks again that the tool can run.
/// `sandbox`: where a discovered tool's call command runs (`None`: unconfined).
pub trait ExternalCalls: Send + Sync {
    fn call_tool(
        &self,
        reserved: &[String],
        name: &str,
        arguments: Value,
        sandbox: Option<SandboxPolicy>,
        cancel: tokio_util::sync::CancellationToken,
        output: OutputSink,
    ) -> BoxFuture<'static, Result<ToolOutput, ToolError>>;
}

pub struct ExternalTool {
    hub: Arc<dyn ExternalCalls>,
    /// The built-in names, as the hub named the tools around them.
    reserved: Arc<[String]>,
    name: String,
    tool: RemoteTool,
    replaces: Option<String>,
    timeout: Duration,
    /// A discovered tool: its call command runs in the session's sandbox.
    discovered: bool,
}

impl ExternalTool {
    pub(super) fn new(
        hub: Arc<dyn ExternalCalls>,
        reserved: Arc<[String]>,
        name: String,
        tool: RemoteTool,
        replaces: Option<String>,
        timeout: Duration,
        discovered: bool,
    ) -> Self {
        Self {
            hub,
            reserved,
            name,
            tool,
            replaces,
            timeout,
            discovered,
        }
    }
}

impl AnyTool for ExternalTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> ToolKind {
        if self.tool.read_only {
            ToolKind::Read
        } else {
            ToolKind::Other
        }
    }

    fn view(&self) -> ArgsView {
        ArgsView::Json
    }

    fn definition(&self) -> ToolDefinition {
        ToolDefinition {
            name: self.name.clone(),
            description: self.tool.description.clone(),
            input_schema: clean_for_provider(self.tool.input_schema.clone()),
        }
    }

    fn title(&self, _args: &Value) -> String {
        String::new()
    }

    fn parse(&self, args: &Value) -> Result<Input, ToolError> {
        Ok(Input::new(args.clone()))
    }

    fn facts(&self, _input: &Input) -> Result<CallFacts, ToolError> {
        let class = if self.tool.read_only {
            ActionClass::Read
        } else {
            ActionClass::External
        };
        Ok(CallFacts {
            destructive: self.tool.destructive,
            ..CallFacts::new(self.name.clone(), class)
        })
    }

    fn change(&self, _input: &Input) -> Option<ProposedChange> {
        None
    }

    fn changes_files(&self) -> bool {
        false
    }

    fn timeout(&self) -> Duration {
        self.timeout + MARGIN
    }

    /// A discovered tool's call command runs in the call's sandbox; an MCP server's tool runs
    /// in the server, outside the call.
    fn sandboxable(&self) -> bool {
        self.discovered
    }

    fn run(
        self: Arc<Self>,
        input: Input,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<ToolOutput, ToolError>> {
        let Some(arguments) = input.take::<Value>() else {
            return futures_util::future::ready(Err(ToolError::new(
                codes::EXECUTION_FAILED,
                "not this tool's input",
            )))
            .boxed();
        };
        self.hub.call_tool(
            &self.reserved,
            &self.name,
            arguments,
            ctx.sandbox,
            ctx.cancel,
            ctx.sink,
        )
    }

    fn replaces(&self) -> Option<&str> {
        self.replaces.as_deref()
    }
}
