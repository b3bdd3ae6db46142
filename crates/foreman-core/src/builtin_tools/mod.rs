//! The tools Foreman brings: read, write, edit, multi_edit, ls, glob, grep, bash, http_fetch,
//! todo_write, skill, and the system tools attempt_completion and new_task; [`list`] names them all.
//!
//! One file per tool: its typed parameters (whose doc comments are what the model reads), a plain
//! async function over a [`BuiltinSession`] with a typed output (a `title` for the card and a
//! `render()` text for the model) and [`BuiltinError`] failures with stable codes, and the
//! [`Tool`](crate::tools::Tool) impl the runtime calls. Every path goes through the
//! [`crate::boundary`] module. [`workspace_files`] is what the user does to files outside any
//! call (their version of a change, undo).

pub mod atomic_write;
pub mod attempt_completion;
pub mod bash;
pub mod bash_output;
pub mod edit;
pub mod edits;
pub mod error;
pub mod facts;
pub mod file_kind;
pub mod glob;
pub mod grep;
pub mod http_fetch;
pub mod list;
mod listed;
pub mod ls;
pub mod multi_edit;
pub mod new_task;
mod newest_first;
pub mod output;
pub mod read;
pub mod read_roots;
pub mod redirect;
pub mod restore;
pub mod session;
pub mod skill;
mod skill_text;
pub mod stale_guard;
pub mod todo;
pub mod todo_list;
pub mod walk;
mod walk_progress;
#[cfg(test)]
mod wire_shape;
pub mod workspace_files;
pub mod write;

pub use error::BuiltinError;
pub use list::{BUILTINS, Builtin, Listed, builtin_names, builtin_tools};
pub use output::BuiltinOutput;
pub use session::BuiltinSession;
pub use stale_guard::ReadTracker;
pub use todo::TodoList;
pub use workspace_files::WorkspaceFiles;
