//! The life of one tool call: [`CallState`] with the only transitions allowed, and the full
//! accumulated state a [`Snapshot`](super::Op::Snapshot) returns.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;
use ts_rs::TS;

use crate::checkpoint::WorkspaceChange;
use crate::decision::CallDecision;
use crate::diff::FileDiff;
use crate::hooks::HookRun;
use crate::images::CallImages;
use crate::sandbox::SandboxNote;
use crate::tool::{ArgsView, CallError, ToolKind};

/// Where a tool call is.
///
/// `Streaming → Validating → AwaitingApproval → Scheduled → Executing → Succeeded | Failed`,
/// with shortcuts (no approval needed: `Validating → Scheduled`; invalid parameters:
/// `Validating → Failed`; a deny rule: `Validating → Rejected`; a command the sandbox refused
/// something asks to run again outside it: `Executing → AwaitingApproval`) and `Cancelled` /
/// `Interrupted` from any unfinished state. [`CallState::transition`] refuses everything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CallState {
    Streaming,
    Validating,
    AwaitingApproval,
    Scheduled,
    Executing,
    Succeeded,
    Failed,
    Cancelled,
    Rejected,
    /// The process ended (crash, kill) while the call was unfinished.
    Interrupted,
}

/// A transition the state machine does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a tool call cannot go from {from:?} to {to:?}")]
pub struct InvalidTransition {
    pub from: CallState,
    pub to: CallState,
}

impl CallState {
    /// True for the states a call never leaves.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            Self::Succeeded | Self::Failed | Self::Cancelled | Self::Rejected | Self::Interrupted
        )
    }

    /// The state after moving to `to`, or an error when the move is not allowed.
    pub fn transition(self, to: CallState) -> Result<CallState, InvalidTransition> {
        use CallState::*;
        let allowed = match (self, to) {
            (from, Cancelled | Interrupted) => !from.is_terminal(),
            (Streaming, Validating | Failed) => true,
            (Validating, AwaitingApproval | Scheduled | Failed | Rejected) => true,
            (AwaitingApproval, Scheduled | Rejected) => true,
            (Scheduled, Executing) => true,
            (Executing, Succeeded | Failed | AwaitingApproval) => true,
            _ => false,
        };
        if allowed {
            Ok(to)
        } else {
            Err(InvalidTransition { from: self, to })
        }
    }
}

/// The diff a file-changing call would make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FilePreview {
    /// Path relative to the workspace root.
    pub path: String,
    /// True when the file does not exist yet.
    pub created: bool,
    pub lines_added: u32,
    pub lines_removed: u32,
    /// The structured diff (hunks with line numbers and word-level spans) the UI draws; `None`
    /// in the throttled live previews sent while the call streams (those carry only the
    /// counts, so bytes on the wire stay linear in the content).
    pub diff: Option<FileDiff>,
}

/// Diff lines an event carries at most. A longer diff is cut (see
/// [`FileDiff::lines_left_out`]) and sent whole on [`Op::LoadPreview`](super::Op::LoadPreview):
/// the 12,000-line diff of a 1 MiB new file is about 2 MB of JSON, which took longer to cross
/// into the webview than the user should wait for the approval. The UI draws 200 lines first
/// and 1,000 more per click, so its first click needs no request.
pub const PREVIEW_LINES_SENT: usize = 1_200;

impl FilePreview {
    /// This preview as events carry it: the diff cut to [`PREVIEW_LINES_SENT`] lines.
    pub fn for_event(&self) -> FilePreview {
        FilePreview {
            path: self.path.clone(),
            created: self.created,
            lines_added: self.lines_added,
            lines_removed: self.lines_removed,
            diff: self
                .diff
                .as_ref()
                .map(|diff| diff.first_lines(PREVIEW_LINES_SENT)),
        }
    }
}

/// Whether the user can undo what a file-changing call did to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum UndoState {
    /// The file's content from before the call is kept; `undo_change` puts it back.
    Available,
    /// Part of the change was undone (some of its hunks); the rest is in the file and can still
    /// be undone, whole or in part, as with `Available`. The card's preview shows what stays.
    Partly,
    /// The change was undone.
    Done,
    /// No longer kept: only the newest changes of each file can be undone.
    Expired,
}

/// Everything known about one call: what a [`Snapshot`](super::Op::Snapshot) returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CallSnapshot {
    pub call_id: String,
    pub name: String,
    pub state: CallState,
    /// The arguments parsed so far (complete once past `Streaming`).
    #[ts(type = "unknown")]
    pub arguments: Value,
    pub preview: Option<FilePreview>,
    pub preview_hash: Option<String>,
    /// Short progress or outcome line for the card.
    pub status: Option<String>,
    /// What the model was told.
    pub result: Option<String>,
    pub is_error: bool,
    /// What the person decided that shaped how the call ended, for the card to say in their
    /// words; `None` otherwise (and in sessions stored before decisions were kept).
    #[serde(default)]
    pub decision: Option<CallDecision>,
    /// Images the tool returned, for the user (the model got a note); `None` when it returned
    /// none. Absent in sessions stored before images were kept.
    #[serde(default)]
    pub images: Option<CallImages>,
    /// The `new_task` call whose sub-agent made this call; `None` for the session's own calls
    /// (and in sessions stored before sub-agents).
    #[serde(default)]
    pub parent_call_id: Option<String>,
    /// For a call that changed a file: whether the change can be undone, or was; `None` for
    /// other calls (and in sessions stored before undo).
    #[serde(default)]
    pub undo: Option<UndoState>,
    /// What kind of tool made the call (absent in sessions stored before kinds).
    #[serde(default)]
    pub kind: ToolKind,
    /// How the card shows the arguments.
    #[serde(default)]
    pub view: ArgsView,
    /// What the call acts on, as its tool words it (`src/main.rs`).
    #[serde(default)]
    pub title: Option<String>,
    /// What the call did, once done (`src/main.rs · lines 1–200 of 1,204` for a read).
    #[serde(default)]
    pub summary: Option<String>,
    /// What the user reads of a failure.
    #[serde(default)]
    pub error: Option<CallError>,
    /// How a command ran: in the sandbox or not, and what the sandbox refused.
    #[serde(default)]
    pub sandbox: Option<SandboxNote>,
    /// The files the call changed in the workspace, when the checkpoints saw them (commands,
    /// external tools).
    #[serde(default)]
    pub changes: Option<Vec<WorkspaceChange>>,
    /// The hooks that ran for the call, in order (`PreToolUse`, `PermissionRequest`,
    /// `PostToolUse`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<HookRun>>")]
    pub hooks: Vec<HookRun>,
}

#[cfg(test)]
mod tests {
    use super::CallState::*;
    use super::*;

    const ALL: [CallState; 10] = [
        Streaming,
        Validating,
        AwaitingApproval,
        Scheduled,
        Executing,
        Succeeded,
        Failed,
        Cancelled,
        Rejected,
        Interrupted,
    ];

    #[test]
    fn the_happy_path_is_allowed() {
        let mut s = Streaming;
        for next in [
            Validating,
            AwaitingApproval,
            Scheduled,
            Executing,
            Succeeded,
        ] {
            s = s.transition(next).unwrap();
        }
        assert_eq!(s, Succeeded);
    }

    #[test]
    fn terminal_states_never_move() {
        for from in ALL.into_iter().filter(|s| s.is_terminal()) {
            for to in ALL {
                assert_eq!(
                    from.transition(to),
                    Err(InvalidTransition { from, to }),
                    "{from:?} -> {to:?}"
                );
            }
        }
    }

    #[test]
    fn skipping_approval_or_execution_is_refused() {
        assert!(Streaming.transition(Executing).is_err());
        assert!(Streaming.transition(Succeeded).is_err());
        assert!(AwaitingApproval.transition(Executing).is_err());
        assert!(Scheduled.transition(Succeeded).is_err());
        assert!(Validating.transition(Executing).is_err());
        assert!(Executing.transition(Rejected).is_err());
        assert!(Executing.transition(Cancelled).is_ok());
        assert!(AwaitingApproval.transition(Interrupted).is_ok());
    }

    #[test]
    fn exactly_the_documented_edges_exist() {
        let count = ALL
            .iter()
            .flat_map(|f| ALL.iter().map(move |t| (f, t)))
            .filter(|(f, t)| f.transition(**t).is_ok())
            .count();
        // 5 unfinished states × {Cancelled, Interrupted} + 2 + 4 + 2 + 1 + 3.
        assert_eq!(count, 10 + 12);
    }
}
