//! [`Op`]: what a front end asks a session to do.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::attachment::AttachInput;
use crate::diff::HunkRef;
pub use crate::mode::ApprovalMode;
use crate::settings::ReasoningEffort;

/// Where an "always allow" rule lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RuleScope {
    /// Until the session ends.
    #[default]
    Session,
    /// For every session in this workspace.
    Workspace,
    /// For every workspace of this user.
    User,
}

/// How far an approval reaches.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ApprovalScope {
    /// This call only.
    #[default]
    Once,
    /// This call, and from now on every call matching `rule` (e.g. `bash(cargo test*)`).
    Always {
        rule: String,
        #[serde(default)]
        scope: RuleScope,
    },
}

/// A request to a running session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// The user's message: starts a task (or, while one runs, is queued for the next turn),
    /// with the files, folders and images it attaches.
    UserMessage {
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<AttachInput>>")]
        attach: Vec<AttachInput>,
    },
    /// Runs a call that awaits approval. Refused when `preview_hash` is not the current one.
    Approve {
        call_id: String,
        preview_hash: String,
        #[serde(default)]
        scope: ApprovalScope,
    },
    /// The user approves the workspace's hooks as they were shown: `hash` is
    /// [`HooksView::consent_hash`](crate::hooks::HooksView); a set that changed since is not
    /// approved by it.
    ConsentHooks { hash: String },
    /// Summarises the older conversation now (`/compact`), as when it fills the context window.
    Compact,
    /// Refuses a call; the model is told, with the feedback when there is some.
    Reject {
        call_id: String,
        #[serde(default)]
        feedback: Option<String>,
    },
    /// Writes the user's version of the file instead of the model's, and tells the model the
    /// difference.
    EditAndApprove {
        call_id: String,
        preview_hash: String,
        new_content: String,
    },
    /// Runs a file change in part: only the hunks of its preview at the 0-based indices `hunks`
    /// are written, the rest of the file keeps what it has, and the model is told what was left
    /// out. Refused when `preview_hash` is not the current one, when the preview left hunks out,
    /// and for a new or deleted file (one change).
    ApproveHunks {
        call_id: String,
        preview_hash: String,
        hunks: Vec<u32>,
    },
    /// Stops the running task: the stream, queued calls and running processes. The user's
    /// messages that waited for its next request are returned
    /// ([`EventMsg::QueuedMessagesReturned`](super::EventMsg::QueuedMessagesReturned)), not run.
    Cancel,
    /// Takes back one of the user's messages still waiting for the running task's next request,
    /// or about to be given back by a Stop whose task has not ended yet (the `index`-th of those,
    /// counted from the ones the Stop holds, then the waiting ones, oldest first, when it has
    /// `text`; otherwise the first of them with `text`): the model will not read it, and it is
    /// given back with [`EventMsg::QueuedMessagesReturned`](super::EventMsg::QueuedMessagesReturned)
    /// at once. An `error` event says so when none has `text` (the model has read it already).
    WithdrawMessage { index: u32, text: String },
    /// Resumes a task paused after repeated tool failures.
    Continue,
    /// Runs the model again on the conversation as it stands, with no new message from the
    /// user, after the last task ended with a retryable error (a server that stayed
    /// unavailable, a dropped connection) or at the iteration cap. What the failed answer had
    /// written stays; the model is told it was cut off and continues from there. Refused with an
    /// `error` event while a task runs or when the last task did not end that way.
    Retry,
    /// Changes the model from the next request on (the user chose another in Settings), with
    /// what goes with it: its context window (`None`: the model's known one, else the
    /// default), the thinking budget (Anthropic; `None` turns thinking off) and the reasoning
    /// effort (OpenAI-compatible; `None` sends none) and the answer's output limit (`None`:
    /// the session keeps its own). The provider stays the session's. Answered with
    /// `model_changed`.
    SetModel {
        model: String,
        #[serde(default)]
        #[ts(optional = nullable)]
        context_window: Option<u32>,
        #[serde(default)]
        #[ts(optional = nullable)]
        thinking_budget: Option<u32>,
        #[serde(default)]
        #[ts(optional = nullable)]
        reasoning_effort: Option<ReasoningEffort>,
        #[serde(default)]
        #[ts(optional = nullable)]
        max_tokens: Option<u32>,
    },
    /// Changes the approval mode from the next decision on.
    SetApprovalMode { mode: ApprovalMode },
    /// Asks for the whole preview of a call whose diff an event carried cut short
    /// ([`FileDiff::lines_left_out`](crate::diff::FileDiff::lines_left_out)); it comes as a
    /// `tool_call_updated` with the preview.
    LoadPreview { call_id: String },
    /// Undoes what the file-changing call `call_id` did: its file gets back the content it had
    /// before the call (a file the call created is removed), if it still has what the call left;
    /// answered with `undo_changed` or `undo_refused`. The model is told with the next message.
    UndoChange { call_id: String },
    /// Undoes part of what the file-changing call `call_id` did: the hunks `hunks` of its change
    /// (named by their place, as the card's diff shows them) get back what the file had before
    /// the call, the others stay, if the file still has what the call left (or what an earlier
    /// partial undo left). Answered with the call's new preview, or `undo_refused`. The model is
    /// told with the next message.
    UndoHunks {
        call_id: String,
        hunks: Vec<HunkRef>,
    },
    /// Puts the whole workspace back as it was before the user's message number
    /// `before_message` (0 is the first): files commands changed too, files created since
    /// removed, deleted ones back. Without `confirm`, answered with `rewind_planned` (what it
    /// would change, for a confirmation); with it, the workspace is checkpointed (so the rewind
    /// can be undone), rewound, and answered with `rewound`. Only while no task runs.
    Rewind {
        before_message: u32,
        #[serde(default)]
        confirm: bool,
    },
    /// Undoes the last rewind: the workspace goes back to how it was just before it (that
    /// state was checkpointed); answered with `rewound`.
    UndoRewind,
    /// Reads the stored rules again (the user changed them in Settings or with the CLI); the
    /// session's own rules stay.
    ReloadRules,
    /// Asks for an [`EventMsg::Snapshot`](super::EventMsg::Snapshot) of the full state.
    Snapshot,
    /// Chooses `value` for the external agent's setting `id` (its model, its own mode, …, as
    /// [`EventMsg::AgentSettings`](super::EventMsg::AgentSettings) listed them); answered with
    /// `agent_settings`, or an `error` event when the agent refuses.
    SetAgentSetting { id: String, value: String },
    /// Ends the session after cancelling any running task.
    Shutdown,
}

impl Op {
    /// A message of the user without attachments.
    pub fn user_message(text: impl Into<String>) -> Self {
        Self::UserMessage {
            text: text.into(),
            attach: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cli_approval_lines_parse() {
        let op: Op =
            serde_json::from_value(json!({"op": "approve", "call_id": "c1", "preview_hash": "h"}))
                .unwrap();
        assert_eq!(
            op,
            Op::Approve {
                call_id: "c1".into(),
                preview_hash: "h".into(),
                scope: ApprovalScope::Once
            }
        );
        let op: Op =
            serde_json::from_value(json!({"op": "reject", "call_id": "c1", "feedback": "no"}))
                .unwrap();
        assert_eq!(
            op,
            Op::Reject {
                call_id: "c1".into(),
                feedback: Some("no".into())
            }
        );
        let op: Op =
            serde_json::from_value(json!({"op": "approve", "call_id": "c", "preview_hash": "h",
            "scope": {"kind": "always", "rule": "bash(cargo test*)", "scope": "workspace"}}))
            .unwrap();
        assert!(matches!(
            op,
            Op::Approve {
                scope: ApprovalScope::Always {
                    scope: RuleScope::Workspace,
                    ..
                },
                ..
            }
        ));
    }

    #[test]
    fn set_model_needs_only_the_model() {
        let op: Op = serde_json::from_value(json!({"op": "set_model", "model": "gpt-5"})).unwrap();
        assert_eq!(
            op,
            Op::SetModel {
                model: "gpt-5".into(),
                context_window: None,
                thinking_budget: None,
                reasoning_effort: None,
                max_tokens: None,
            }
        );
    }

    #[test]
    fn modes_parse_from_cli_spelling() {
        assert_eq!("auto-edit".parse(), Ok(ApprovalMode::AutoEdit));
        assert_eq!("read-only".parse(), Ok(ApprovalMode::ReadOnly));
        assert!("nope".parse::<ApprovalMode>().is_err());
        assert_eq!(
            serde_json::to_value(ApprovalMode::Yolo).unwrap(),
            json!("yolo")
        );
    }
}
