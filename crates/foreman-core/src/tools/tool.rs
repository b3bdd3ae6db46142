//! The tool contract: [`Tool`], typed, for the tools written here, and [`AnyTool`], erased,
//! which the registry holds. One blanket impl turns every `Tool` into an `AnyTool`; tools whose
//! input is only known at run time (MCP, discovery) implement `AnyTool` directly.

use std::any::Any;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize as _;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::context::CallContext;
use super::error::{ParamProblem, ToolError, codes};
use super::output::ToolOutput;
use super::schema::schema_for;
use crate::approval::CallFacts;
use crate::protocol::{ArgsView, ToolKind};
use crate::providers::ToolDefinition;

/// How long a call may run unless its tool or the configuration says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// The new content a file tool would write, for the diff the user approves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposedChange {
    /// Absolute path.
    pub path: PathBuf,
    /// Workspace-relative path for display.
    pub shown: String,
    /// The current content, `None` when the file does not exist.
    pub old: Option<String>,
    /// The content after the call.
    pub new: String,
}

/// A tool with a typed input. The input struct's doc comment is the description the model
/// reads, and its fields' doc comments describe the parameters.
pub trait Tool: Send + Sync + 'static {
    type Input: DeserializeOwned + JsonSchema + Send + Sync + 'static;

    const NAME: &'static str;
    const KIND: ToolKind;

    /// How the card shows the arguments.
    fn view(&self) -> ArgsView {
        ArgsView::Json
    }

    /// The card's title from the arguments so far: only top-level values, strings possibly cut.
    fn title(&self, args: &Value) -> String;

    /// What the approval policy decides on; `Err` stops the call (a path outside the workspace).
    fn facts(&self, input: &Self::Input) -> Result<CallFacts, ToolError>;

    /// The file change the call would make, for its diff.
    fn change(&self, _input: &Self::Input) -> Option<ProposedChange> {
        None
    }

    /// Whether [`change`](Self::change) can give anything: such a call's diff is shown live
    /// while its arguments stream.
    fn changes_files(&self) -> bool {
        false
    }

    /// How long a call may run before it is stopped.
    fn timeout(&self) -> Duration {
        DEFAULT_TIMEOUT
    }

    /// Whether the call runs a command that the sandbox can confine
    /// ([`CallContext::sandbox`] then says how).
    fn sandboxable(&self) -> bool {
        false
    }

    /// Runs the call with valid input.
    fn run(
        self: Arc<Self>,
        input: Self::Input,
        ctx: CallContext,
    ) -> impl Future<Output = Result<ToolOutput, ToolError>> + Send + 'static;
}

/// A call's input after parsing, of the tool's own type inside.
pub struct Input(Box<dyn Any + Send + Sync>);

impl Input {
    pub fn new<T: Any + Send + Sync>(value: T) -> Self {
        Self(Box::new(value))
    }

    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.downcast_ref()
    }

    pub fn take<T: Any>(self) -> Option<T> {
        self.0.downcast().ok().map(|b| *b)
    }
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Input(..)")
    }
}

/// A tool as the registry holds it.
pub trait AnyTool: Send + Sync {
    fn name(&self) -> &str;
    fn kind(&self) -> ToolKind;
    fn view(&self) -> ArgsView;
    /// The name, description and (provider-clean) schema the model is given.
    fn definition(&self) -> ToolDefinition;
    fn title(&self, args: &Value) -> String;
    /// Turns valid arguments into the tool's input (parsed once per call).
    fn parse(&self, args: &Value) -> Result<Input, ToolError>;
    fn facts(&self, input: &Input) -> Result<CallFacts, ToolError>;
    fn change(&self, input: &Input) -> Option<ProposedChange>;
    fn changes_files(&self) -> bool;
    fn timeout(&self) -> Duration;
    fn sandboxable(&self) -> bool;
    fn run(
        self: Arc<Self>,
        input: Input,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<ToolOutput, ToolError>>;
    /// The built-in this tool replaces, when its configuration says so (`"replaces": ["bash"]`).
    fn replaces(&self) -> Option<&str> {
        None
    }
}

impl std::fmt::Debug for dyn AnyTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AnyTool({})", self.name())
    }
}

fn wrong_input(tool: &str) -> ToolError {
    ToolError::new(
        codes::EXECUTION_FAILED,
        format!("`{tool}` was given another tool's input"),
    )
}

/// The model-facing definition of a typed tool: the input's doc comment becomes the
/// description and leaves the schema.
pub fn typed_definition<I: JsonSchema>(name: &str) -> ToolDefinition {
    let mut schema = schema_for::<I>();
    let description = schema
        .as_object_mut()
        .and_then(|root| root.remove("description"))
        .and_then(|d| d.as_str().map(str::to_owned))
        .unwrap_or_default();
    ToolDefinition {
        name: name.to_owned(),
        description,
        input_schema: schema,
    }
}

impl<T: Tool> AnyTool for T {
    fn name(&self) -> &str {
        T::NAME
    }

    fn kind(&self) -> ToolKind {
        T::KIND
    }

    fn view(&self) -> ArgsView {
        Tool::view(self)
    }

    fn definition(&self) -> ToolDefinition {
        typed_definition::<T::Input>(T::NAME)
    }

    fn title(&self, args: &Value) -> String {
        Tool::title(self, args)
    }

    fn parse(&self, args: &Value) -> Result<Input, ToolError> {
        T::Input::deserialize(args)
            .map(Input::new)
            .map_err(|e| ToolError::invalid_params(vec![ParamProblem::new("", e.to_string())]))
    }

    fn facts(&self, input: &Input) -> Result<CallFacts, ToolError> {
        let input = input
            .get::<T::Input>()
            .ok_or_else(|| wrong_input(T::NAME))?;
        Tool::facts(self, input)
    }

    fn change(&self, input: &Input) -> Option<ProposedChange> {
        Tool::change(self, input.get::<T::Input>()?)
    }

    fn changes_files(&self) -> bool {
        Tool::changes_files(self)
    }

    fn timeout(&self) -> Duration {
        Tool::timeout(self)
    }

    fn sandboxable(&self) -> bool {
        Tool::sandboxable(self)
    }

    fn run(
        self: Arc<Self>,
        input: Input,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<ToolOutput, ToolError>> {
        match input.take::<T::Input>() {
            Some(input) => Tool::run(self, input, ctx).boxed(),
            None => futures_util::future::ready(Err(wrong_input(T::NAME))).boxed(),
        }
    }
}

/// A top-level string argument, for titles (`None` when absent or not a string).
pub fn arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}
