//! What a front end is told about a tool so that it renders every call the same way, whatever
//! the tool: its kind, how its arguments read, its failures and its statistics.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What kind of work a tool does: the card's icon, and whether it reads or changes anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS, Default)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Reads a file or lists a directory.
    Read,
    /// Searches file names or contents.
    Search,
    /// Changes a file.
    Edit,
    /// Runs a command.
    Execute,
    /// Talks to the network.
    Fetch,
    /// Keeps the task list.
    Plan,
    /// Hands work to a sub-agent.
    Delegate,
    /// Ends the task.
    Complete,
    /// A tool from outside Foreman, or any other.
    #[default]
    Other,
}

/// How a card shows a call's arguments while they stream and while the call waits. The names
/// are the arguments to read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, Default)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum ArgsView {
    /// The arguments as JSON.
    #[default]
    Json,
    /// Nothing but the title (the diff and the result say the rest).
    Title,
    /// A file's whole new content, growing as it streams; the user may edit it before
    /// approving.
    FileContent { path: String, content: String },
    /// Text replaced and its replacement.
    Replacement { old: String, new: String },
    /// A shell command; its live output and exit code show below it.
    Command { command: String },
}

/// A failed call as the user reads it (the model gets it as structured JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CallError {
    /// A stable code such as `FILE_NOT_FOUND`.
    pub code: String,
    /// What went wrong, in a sentence or two.
    pub message: String,
}

/// How one tool's calls went in this session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, Default)]
pub struct ToolStats {
    pub tool: String,
    pub calls: u32,
    pub succeeded: u32,
    pub failed: u32,
    pub timed_out: u32,
    /// Mean running time in milliseconds.
    #[ts(type = "number")]
    pub mean_ms: u64,
    /// The 95th percentile of the running times in milliseconds.
    #[ts(type = "number")]
    pub p95_ms: u64,
}
