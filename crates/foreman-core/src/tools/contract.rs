//! The tool contract: the dyn-compatible [`Tool`] trait the manager stores as `Arc<dyn Tool>`,
//! the name rule, and [`ToolFactory`], which the registry stores instead of instances.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use futures::future::BoxFuture;
use serde_json::Value;
use thiserror::Error;

use super::context::{ToolContext, ToolEnv};
use super::error::{ParamProblem, ToolError};
use super::kind::ToolKind;

/// A tool the model can call.
///
/// `execute` returns no result value: the tool reports through its context —
/// [`ToolContext::set_result`] for the model and [`ToolContext::send_status`] for the person. An
/// `Err` is a shortcut for "set this error as the result and end in `ERROR`". A tool that
/// finishes without a result gets an `EXECUTION_FAILED` result from the manager.
///
/// Stateless tools are easier to write with [`TypedTool`](super::TypedTool) or
/// [`simple_tool`](super::simple_tool).
#[async_trait]
pub trait Tool: Send + Sync + 'static {
    /// Unique name matching `^[a-zA-Z0-9_-]{1,64}$`.
    fn name(&self) -> &str;

    /// A friendlier name for the UI.
    fn display_name(&self) -> Option<&str> {
        None
    }

    /// The kind, used by the approval policy.
    fn kind(&self) -> ToolKind;

    /// The description the model sees; may depend on runtime state.
    async fn description(&self) -> String;

    /// The JSON Schema of the parameters (an object schema); may depend on runtime state.
    async fn parameters_schema(&self) -> Value;

    /// Just-in-time usage notes, added to the conversation when this tool is first used or
    /// first fails in a session (never in the system prompt, which stays byte-stable).
    fn usage_notes(&self) -> Option<UsageNotes> {
        None
    }

    /// The tool's own timeout; configured timeouts win, the default is 10 minutes.
    fn timeout(&self) -> Option<Duration> {
        None
    }

    /// Checks beyond the schema (which the manager already enforced). Problems stop the call
    /// with `INVALID_TOOL_PARAMS`.
    async fn validate(&self, _params: &Value) -> Result<(), Vec<ParamProblem>> {
        Ok(())
    }

    /// Runs the tool. With `is_partial`, `params` are the arguments streamed so far (possibly
    /// missing required fields): show a `WAIT` card with them and do no real work.
    async fn execute(
        &self,
        params: Value,
        ctx: &ToolContext,
        is_partial: bool,
    ) -> Result<(), ToolError>;
}

/// When a tool's [`UsageNotes`] join the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotesTrigger {
    /// With the result of the tool's first call in the session.
    FirstUse,
    /// With the result of the tool's first failed call in the session.
    FirstFailure,
}

/// Usage notes of a tool and when they are injected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageNotes {
    pub text: String,
    pub trigger: NotesTrigger,
}

impl UsageNotes {
    pub fn on_first_use(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            trigger: NotesTrigger::FirstUse,
        }
    }

    pub fn on_first_failure(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            trigger: NotesTrigger::FirstFailure,
        }
    }
}

/// A tool name that breaks the naming rule.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid tool name `{0}`: use 1 to 64 ASCII letters, digits, `_` or `-`")]
pub struct InvalidToolName(pub String);

/// Checks `name` against `^[a-zA-Z0-9_-]{1,64}$`.
pub fn validate_tool_name(name: &str) -> Result<(), InvalidToolName> {
    let valid = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if valid {
        Ok(())
    } else {
        Err(InvalidToolName(name.to_owned()))
    }
}

type MakeFn = dyn Fn(ToolEnv) -> BoxFuture<'static, Result<Arc<dyn Tool>, ToolError>> + Send + Sync;

/// Makes a fresh tool instance for a call (or for listing definitions) from the session's
/// environment. Cloning is cheap.
#[derive(Clone)]
pub struct ToolFactory {
    name: Arc<str>,
    make: Arc<MakeFn>,
}

impl std::fmt::Debug for ToolFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolFactory")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl ToolFactory {
    /// A factory from an async function of the environment, for tools with injected deps.
    pub fn new<F, Fut>(name: &str, make: F) -> Result<Self, InvalidToolName>
    where
        F: Fn(ToolEnv) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Arc<dyn Tool>, ToolError>> + Send + 'static,
    {
        validate_tool_name(name)?;
        Ok(Self {
            name: Arc::from(name),
            make: Arc::new(move |env| Box::pin(make(env))),
        })
    }

    /// A factory making `T::default()` for every call.
    pub fn of_default<T: Tool + Default>() -> Result<Self, InvalidToolName> {
        let name = T::default().name().to_owned();
        Self::new(&name, |_env| async {
            Ok(Arc::new(T::default()) as Arc<dyn Tool>)
        })
    }

    /// A factory sharing one instance between calls (its state is shared too).
    pub fn shared(tool: Arc<dyn Tool>) -> Result<Self, InvalidToolName> {
        let name = tool.name().to_owned();
        Self::new(&name, move |_env| {
            let tool = Arc::clone(&tool);
            async move { Ok(tool) }
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Makes an instance.
    pub async fn make(&self, env: ToolEnv) -> Result<Arc<dyn Tool>, ToolError> {
        (self.make)(env).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rule() {
        for good in ["read", "new_task", "mcp-git_log", &"a".repeat(64)] {
            assert!(validate_tool_name(good).is_ok(), "{good}");
        }
        for bad in ["", "has space", "dot.ted", "ünï", &"a".repeat(65)] {
            assert!(validate_tool_name(bad).is_err(), "{bad}");
        }
    }
}
