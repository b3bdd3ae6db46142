//! What travels between the stages of a call's journey: a [`Job`] the gate let through, the
//! [`Running`] job it becomes while its tool runs, an [`Escalation`] when the sandbox refused
//! something its command tried, and how the calls of a response end the turn
//! ([`CallsOutcome`]). No engine here: the stages that move them are the files beside this one.

use serde_json::Value;

use crate::approval::{ActionClass, DeniedPaths, ShellLine};
use crate::tools::{Prepared, Repair};

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

/// The result a call gets when the task stops before it ran.
pub const NOT_RUN_CANCELLED: &str = "Cancelled by the user before this call ran; nothing was done.";

/// A call ready to run.
pub(crate) struct Job {
    /// Its place among the response's calls (its result's).
    pub index: usize,
    pub id: String,
    pub prepared: Prepared,
    /// The file an edit changes (what it replaced is kept for an undo).
    pub edited_path: Option<String>,
    /// Not a read: it may change the workspace (a file tool, a command, an external tool).
    pub mutates: bool,
    /// The user chose to run its command outside the sandbox.
    pub unsandboxed: bool,
}

impl Job {
    /// The job of the call `id`, the `index`-th of its response, prepared as `prepared`.
    pub(crate) fn new(index: usize, id: String, prepared: Prepared) -> Self {
        let class = prepared.facts.class;
        let edited_path = prepared
            .facts
            .path
            .clone()
            .filter(|_| class == ActionClass::Edit);
        Self {
            index,
            id,
            prepared,
            edited_path,
            mutates: !matches!(class, ActionClass::Read | ActionClass::Control),
            unsandboxed: false,
        }
    }
}

/// A job whose tool runs: what settling it takes once the run is over.
pub(crate) struct Running {
    pub index: usize,
    pub id: String,
    /// The tool's name.
    pub tool: String,
    pub edited_path: Option<String>,
    pub mutates: bool,
    pub repairs: Vec<Repair>,
    /// Its arguments, for the `PostToolUse` hooks and a run outside the sandbox.
    pub arguments: Value,
    /// What its command was confined by (`None`: it ran unconfined).
    pub confined: Option<Confined>,
    /// What the edit is about to replace (`None`: nothing can be kept; `Some(None)`: no file).
    pub before: Option<Option<Vec<u8>>>,
}

/// What a confined command's run is read against afterwards: what it ran, and the paths the
/// deny rules kept from it.
pub(crate) struct Confined {
    pub line: Option<ShellLine>,
    pub denied: DeniedPaths,
}

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
