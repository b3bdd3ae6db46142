//! What a command changed in the workspace, and a rewind of the workspace to before a message,
//! as cards and the confirmation show them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::diff::FileDiff;

/// How a file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
}

/// One file a step changed (or a rewind changes), with its diff when it is text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkspaceChange {
    /// Workspace-relative, with `/`.
    pub path: String,
    pub kind: ChangeKind,
    /// `None` for a file that is not text (or a symlink).
    pub diff: Option<FileDiff>,
}

/// One file the session changed, as it stands now against the workspace at the session's start
/// (file tools, commands and external tools alike).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionFileChange {
    /// Workspace-relative, with `/`.
    pub path: String,
    pub kind: ChangeKind,
    /// Lines added and removed; 0 and 0 for a file that is not text (`text` false).
    pub added: u32,
    pub removed: u32,
    pub text: bool,
}

/// What a rewind to before a message would do, for the user to confirm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RewindPlan {
    /// The user's message (0 is the first) the workspace goes back to before.
    pub before_message: u32,
    /// The files it changes, as the rewind would change them.
    pub changes: Vec<WorkspaceChange>,
    /// Files changed since the agent last looked (by you, or another program): the rewind
    /// overwrites them too.
    pub changed_outside: Vec<String>,
    /// Files the checkpoints leave out (too large, unreadable): a rewind leaves them alone.
    pub skipped: Vec<String>,
}
