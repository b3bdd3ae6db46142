//! Tools: the contract between the agent loop and everything the model can call.
//!
//! # Two channels
//!
//! A tool's [`Tool::execute`] returns no result value. It reports through its [`ToolContext`]:
//!
//! * **model channel** — [`ToolContext::set_result`]: what the model sees for this call on its
//!   next turn (text, JSON, or a structured error `{ok: false, code, error, suggestions}`).
//!   Exactly one result reaches the model per call id; if a tool sets none, the model gets an
//!   `EXECUTION_FAILED` result saying so.
//! * **UI channel** — [`ToolContext::send_status`]: what the person sees, a [`ToolInfo`] card
//!   accumulated from every status sent. Each change is also emitted as a [`ToolInfoPatch`]
//!   (changed fields only, growing strings as appends) through the [`ToolEvent`] sink.
//!
//! # The status state machine
//!
//! ```text
//!   WAIT ──► DOING ──► SUCCESS
//!     │        │  ▲
//!     │        └──┘──► ERROR
//!     └───────────────► SUCCESS | ERROR
//! ```
//!
//! `WAIT` while params stream in (partial invocations) or approval is pending, `DOING` while
//! working, then one terminal state. [`ToolStatus::transition`] refuses every other move (nothing
//! leaves a terminal state, nothing returns to `WAIT`), and [`StatusUpdate`] can only carry a
//! `result` or `error` when it targets `SUCCESS` or `ERROR`. Fields accumulate: `params`
//! deep-merge (so params shown during `WAIT` are still there at `SUCCESS`), `tip` and `progress`
//! replace, `result` and `error` overwrite.
//!
//! ```
//! # use foreman_core::tools::*;
//! # use serde_json::json;
//! # let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
//! # let ctx = ToolContext::standalone(ToolEnv::new("/ws", "session", tx), "write", "call-1");
//! // Partial invocation: show what has arrived.
//! ctx.send_status(StatusUpdate::wait().params(json!({"path": "src/main.rs"})))?;
//! // Final invocation: do the work, then report to both channels.
//! ctx.send_status(StatusUpdate::doing().tip("Writing src/main.rs…"))?;
//! ctx.set_result("Wrote 12 lines to src/main.rs.");
//! ctx.send_status(StatusUpdate::success(json!({"lines": 12})))?;
//! let card = ctx.snapshot();
//! assert_eq!(card.status, ToolStatus::Success);
//! assert_eq!(card.params, json!({"path": "src/main.rs"}));
//! // The record is frozen now.
//! assert!(ctx.send_status(StatusUpdate::doing()).is_err());
//! # Ok::<(), StatusError>(())
//! ```
//!
//! # Writing a tool
//!
//! Stateless tools: [`simple_tool`] from a params struct and an async fn. Tools with state:
//! implement [`TypedTool`] (typed params, schema derived with `schemars`) or [`Tool`] directly.
//! Register factories, not instances, in a [`ToolRegistry`].

mod catalogue;
mod context;
mod contract;
mod error;
mod guard;
mod info;
mod kind;
mod manager;
mod merge;
mod partial_json;
mod record;
mod registry;
mod repair;
mod result;
mod schema;
mod simple;
mod stats;
mod status;
pub mod system;
mod throttle;
mod typed;
mod validation;
mod wrappers;

pub use catalogue::{ToolDefinition, render_catalogue};
pub use context::{
    DEFAULT_TOOL_TIMEOUT, SubAgentRequest, SubAgentRunner, ToolContext, ToolEnv, ToolEvent,
    ToolSettings,
};
pub use contract::{
    InvalidToolName, NotesTrigger, Tool, ToolFactory, UsageNotes, validate_tool_name,
};
pub use error::{ParamProblem, ToolError, ToolErrorKind};
pub use info::{Progress, TextPatch, ToolInfo, ToolInfoPatch};
pub use kind::ToolKind;
pub use manager::{ExecutionOutcome, ManagerConfig, PauseSignal, ToolCall, ToolManager};
pub use merge::{ParamsPatch, deep_merge, diff};
pub use partial_json::{JsonScanner, complete_prefix};
pub use record::{StatusError, StatusRecord};
pub use registry::ToolRegistry;
pub use repair::{Repair, RepairKind, repair};
pub use result::ToolResult;
pub use schema::{clean_for_provider, parameters_without_description, schema_for};
pub use simple::{SimpleTool, simple_tool};
pub use stats::{StatsBook, ToolStats};
pub use status::{IllegalTransition, StatusUpdate, ToolStatus};
pub use throttle::{PartialStream, ThrottleConfig};
pub use typed::{TypedTool, parse_params};
pub use validation::{ParamValidator, Validated};
pub use wrappers::{CallView, LoggingWrapper, Next, StatsWrapper, ToolWrapper, WrapperChain};
