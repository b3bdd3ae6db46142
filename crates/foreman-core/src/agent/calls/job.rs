//! The calls of a turn on their way through the scheduler: a [`Job`] ready to run, the results
//! in call order, how the calls ended the turn, and an [`Escalation`] when the sandbox refused
//! something a command tried.

use serde_json::Value;

use crate::tools::Prepared;

/// How the calls of a response ended the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CallsOutcome {
    /// Ask the model again.
    Continue,
    /// A call ended the task with this summary.
    Completed(String),
    Cancelled,
    /// The user stopped after a pause.
    Stopped,
}

/// A call ready to run.
pub(crate) struct Job {
    pub index: usize,
    pub id: String,
    pub prepared: Prepared,
    /// The file a file-changing call changes (what it replaced is kept for an undo).
    pub changes: Option<String>,
    /// Not a read: it may change the workspace (a file tool, a command, an external tool).
    pub mutates: bool,
    /// The user chose to run its command outside the sandbox.
    pub outside: bool,
}

pub(crate) type Results = Vec<Option<(String, bool)>>;

/// The result a call gets when the task stops before it ran.
pub const NOT_RUN_CANCELLED: &str = "Cancelled by the user before this call ran; nothing was done.";

/// A confined command the sandbox refused something.
#[derive(Debug)]
pub(crate) struct Escalation {
    pub index: usize,
    pub id: String,
    pub tool: String,
    pub arguments: Value,
    /// The confined run's result for the model.
    pub text: String,
    /// The lines of its output that show what was refused.
    pub refused: Vec<String>,
    /// The hidden paths it named or needs (a credential it could not read).
    pub hidden: Vec<String>,
}
