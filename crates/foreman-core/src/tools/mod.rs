//! The tool runtime: every call the model makes — built-in, system, MCP or discovery — goes
//! through one contract and one pipeline.
//!
//! - [`Tool`] is the typed contract the tools written here implement (`builtin_tools/`, one
//!   file each, listed in `builtin_tools/list.rs`): its input struct (whose doc comments are
//!   what the model reads), its kind and card view, a title from the arguments so far, the
//!   facts the approval policy needs, the file change it would make, and `run`. [`AnyTool`] is
//!   the erased form the registry holds; a blanket impl makes every `Tool` one, and MCP and
//!   discovery tools implement it directly (`mcp/tool.rs`).
//! - [`ToolSet`] holds a session's tools by name, with their provider-clean schemas
//!   ([`schema`]) and compiled validators; an external tool may replace a built-in when its
//!   configuration says so ([`replacement`]).
//! - [`pipeline`] is the path of one call: find → repair → validate → parse and facts → (the
//!   session's policy and approval) → run with a timeout → the model's result and the user's →
//!   stats.
//! - A running call has two channels ([`CallContext`]): its [`ToolOutput`] (or [`ToolError`]) is
//!   what the model reads; live output, images and the progress line go to the user only.
//!   The system tools (`attempt_completion`, `new_task`, `todo_write`) steer the loop through
//!   [`Control`], so the scheduler never looks at a tool's name.

mod context;
mod error;
mod output;
pub mod pipeline;
mod registry;
pub mod repair;
pub mod replacement;
pub mod schema;
mod stats;
mod tool;
mod validation;

pub use context::{CallContext, CallOutput, OutputSink};
pub use error::{ParamProblem, ToolError, codes};
pub use output::{Control, SubAgentRequest, ToolOutput};
pub use pipeline::{Executed, Prepared, execute};
pub use registry::ToolSet;
pub use repair::{Repair, RepairKind};
pub use schema::{clean_for_provider, schema_for};
pub use stats::{CallEnd, StatsBook};
pub use tool::{AnyTool, DEFAULT_TIMEOUT, Input, ProposedChange, Tool, arg, typed_definition};
pub use validation::{ParamValidator, Validated};
