//! The built-in tools the agent uses on the workspace: read, write, edit, multi_edit, ls, glob,
//! grep, bash, http_fetch and todo_write.
//!
//! Each tool is a plain async function over a [`BuiltinSession`] with typed parameters (serde +
//! JSON Schema), a typed output carrying a `title` and metadata for the UI plus a `render()` text
//! for the model, a `*_tip` function for the progress line shown while it runs, and
//! [`BuiltinError`] failures with stable codes. Every path goes through the
//! [`crate::boundary`] module.

pub mod atomic_write;
pub mod bash;
pub mod bash_output;
pub mod diff_stats;
pub mod edit;
pub mod edit_match;
pub mod error;
pub mod file_kind;
pub mod glob;
pub mod grep;
pub mod http_fetch;
pub mod ls;
pub mod multi_edit;
mod newest_first;
pub mod output;
pub mod read;
pub mod redirect;
pub mod registration;
pub mod restore;
pub mod session;
pub mod stale_guard;
pub mod todo;
pub mod walk;
mod walk_progress;
pub mod write;

pub use error::BuiltinError;
pub use output::BuiltinOutput;
pub use registration::{
    BUILTIN_TOOL_NAMES, BuiltinSessions, builtin_factories, register_builtin_tools,
};
pub use session::BuiltinSession;
pub use stale_guard::ReadTracker;
pub use todo::TodoList;
