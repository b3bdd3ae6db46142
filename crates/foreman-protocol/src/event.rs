//! [`Event`]: every state change of a session, in order.
//!
//! Tool-call updates are merge patches: only the fields that changed, and the arguments as
//! partial-JSON [`Patch`]es (text appended to a string), so the bytes sent for one call stay
//! linear in its size however the model chunks it. [`EventMsg::Snapshot`] has the full state.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::agents::AgentSetting;
use crate::attachment::{AttachmentView, ImageInput};
use crate::call::{CallSnapshot, CallState, FilePreview, UndoState};
use crate::checkpoint::{RewindPlan, SessionFileChange, WorkspaceChange};
use crate::config_warning::ConfigArea;
use crate::decision::CallDecision;
use crate::hooks::{HookRun, HooksView, SlashEntry};
use crate::images::CallImages;
use crate::network::PrivateTarget;
use crate::op::{ApprovalMode, RuleScope};
use crate::patch::Patch;
use crate::sandbox::SandboxNote;
use crate::tool::{ArgsView, CallError, ToolKind, ToolStats};
use crate::usage::UsageSummary;

/// One event with its per-session sequence number (1, 2, 3...).
///
/// Events of a sub-agent (a `new_task` call's child session) come on the same stream, in the
/// same `seq`, with `parent_call_id` set to the `new_task` call, so a front end can nest them in
/// that call's card. Events of the session itself have none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Event {
    #[ts(type = "number")]
    pub seq: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub parent_call_id: Option<String>,
    #[serde(flatten)]
    pub msg: EventMsg,
}

/// Why a task ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TaskEndReason {
    /// The model called `attempt_completion`.
    Completed { summary: String },
    /// The model answered without calling a tool.
    FinalAnswer { text: String },
    /// The user cancelled.
    Cancelled,
    /// The task used its model-request budget.
    IterationCap { max_iterations: u32 },
    /// The user chose to stop after a pause.
    Stopped,
    /// The model could not be reached or refused the request. `retryable` when sending the
    /// request again may work (the server was unavailable or the connection dropped), so a
    /// front end offers [`Op::Retry`](super::Op::Retry); not for a rejected key or request.
    Error {
        message: String,
        /// False when a stored end lacks it.
        #[serde(default)]
        retryable: bool,
    },
}

impl TaskEndReason {
    /// True when the task did what was asked.
    pub fn is_success(&self) -> bool {
        matches!(self, Self::Completed { .. } | Self::FinalAnswer { .. })
    }

    /// Whether the task may be run again with [`Op::Retry`](super::Op::Retry): it ended with an
    /// error that a new attempt may get past, or at the iteration cap.
    pub fn may_retry(&self) -> bool {
        matches!(
            self,
            Self::Error {
                retryable: true,
                ..
            } | Self::IterationCap { .. }
        )
    }

    /// One line for a user.
    pub fn describe(&self) -> String {
        match self {
            Self::Completed { .. } => "task completed".into(),
            Self::FinalAnswer { .. } => "task answered".into(),
            Self::Cancelled => "task cancelled".into(),
            Self::IterationCap { max_iterations } => {
                format!("stopped after {max_iterations} model requests (the iteration cap)")
            }
            Self::Stopped => "stopped after repeated tool failures".into(),
            Self::Error { message, .. } => message.clone(),
        }
    }
}

/// Most paths one [`EventMsg::FilesChanged`] lists.
pub const FILES_CHANGED_LIMIT: usize = 200;

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventMsg {
    /// The session is ready. `usage` continues what a resumed session used before.
    SessionStarted {
        session_id: String,
        model: String,
        workspace: String,
        mode: ApprovalMode,
        usage: UsageSummary,
    },
    /// The user's message joined the conversation: it starts a task, or, sent while a task
    /// ran, the model reads it from the task's next request on. Messages join in the order they
    /// were sent, so a front end that showed a sent message as waiting knows it was read.
    /// `number` is its place among the user's messages of the session (0 for the first, as a
    /// stored session's transcript counts them), so a front end that loaded the transcript
    /// knows whether it shows this one already.
    UserMessageTaken {
        text: String,
        number: u32,
        /// What the message attached, as read when the model took it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<AttachmentView>>")]
        attachments: Vec<AttachmentView>,
    },
    /// The session was named, from the user's first message (as it is stored and listed), so
    /// a front end lists it by that name while it runs.
    SessionTitled {
        title: String,
    },
    /// The user stopped the task (or the session closed) while messages they had sent waited
    /// for its next request; comes after its `task_ended`. Or the user took one waiting
    /// message back ([`Op::WithdrawMessage`](super::Op::WithdrawMessage)); it comes at once.
    /// The model has not read them and no task will run them: a front end gives them back to
    /// the user (the composer) to send again or change. A message sent after the Stop is not
    /// among them: it starts a task.
    QueuedMessagesReturned {
        texts: Vec<String>,
        /// The images those messages carried (their mentioned paths are in their texts).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<ImageInput>>")]
        images: Vec<ImageInput>,
    },
    /// A task (one user request, possibly many model turns) began.
    TaskStarted,
    /// A model request began (1-based within the task).
    TurnStarted {
        iteration: u32,
    },
    /// A model turn and its tool calls are done.
    TurnEnded {
        iteration: u32,
    },
    TextDelta {
        text: String,
    },
    ThinkingDelta {
        text: String,
    },
    /// The model began a tool call; its card shows at once, drawn by the tool's kind and view
    /// (never by its name).
    ToolCallCreated {
        call_id: String,
        name: String,
        state: CallState,
        #[serde(default)]
        kind: ToolKind,
        #[serde(default)]
        view: ArgsView,
    },
    /// A merge patch of a call: only what changed.
    ToolCallUpdated {
        call_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        state: Option<CallState>,
        /// Partial-JSON patches of the arguments, in order.
        #[serde(default)]
        #[ts(type = "Array<unknown>")]
        args: Vec<Patch>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        preview: Option<FilePreview>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        status: Option<String>,
        /// The images the tool returned, for the user (replaces earlier ones).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        images: Option<CallImages>,
        /// The card's title: what the call acts on, as the arguments arrive (`src/main.rs`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        title: Option<String>,
    },
    /// Live output of a running call (a command's stdout/stderr), for the user only; append
    /// it to what came before.
    ToolCallOutput {
        call_id: String,
        text: String,
    },
    /// A call reached a final state; `result` is what the model is told, `error` what the user
    /// reads when the tool failed.
    ToolCallFinished {
        call_id: String,
        state: CallState,
        result: String,
        is_error: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        error: Option<CallError>,
        /// What the call did, in a line (`src/main.rs · lines 1–200 of 1,204` for a read).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        summary: Option<String>,
        /// What the person decided that shaped how it ended (rejected it, edited it, approved
        /// part of it, stopped it before it ran), for the card to say in their words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        decision: Option<CallDecision>,
    },
    /// How a tool's calls went so far in this session, after each of its calls.
    ToolStats {
        stats: ToolStats,
    },
    /// The task list changed (`todo_write`): the whole list.
    TodosChanged {
        #[ts(type = "unknown")]
        todos: serde_json::Value,
    },
    /// A call waits for the user. Answer with `approve`/`reject`/`edit_and_approve` quoting
    /// `preview_hash`; a new request with a new hash replaces this one if the file changes.
    ApprovalRequested {
        call_id: String,
        tool: String,
        preview_hash: String,
        reason: String,
        /// The call's complete arguments. Left out (`null`) for a file change whose diff is in
        /// `preview` when the arguments are exactly what the call's `tool_call_updated` patches
        /// built: a streamed 1 MiB write then does not cross the bridge a second time.
        #[serde(default)]
        #[ts(type = "unknown")]
        arguments: Option<serde_json::Value>,
        preview: Option<FilePreview>,
        /// The rule "Always allow" would add; `None` when no rule can allow the call (a command
        /// line that is more than plain commands).
        suggested_rule: Option<String>,
        /// The fetch reaches this computer or a private network.
        #[serde(default)]
        private_target: Option<PrivateTarget>,
    },
    /// An answer was refused (stale hash, unknown call...); the request stands.
    ApprovalRefused {
        call_id: String,
        reason: String,
    },
    /// What the user can do about a file-changing call's change changed: it can be undone
    /// (the call succeeded and its file's previous content is kept), or it was undone.
    UndoChanged {
        call_id: String,
        undo: UndoState,
    },
    /// The files a step changed in the workspace (a command, an external tool), from the
    /// checkpoints before and after it.
    CallChanges {
        call_id: String,
        changes: Vec<WorkspaceChange>,
    },
    /// What the session has changed in the workspace so far: every file one of its steps
    /// touched (a file tool, a command, an external tool) that differs now from the workspace at
    /// the session's start, in path order. Sent after each step that can change files, an undo,
    /// a rewind, and when a stored session resumes; each one replaces the last.
    SessionChanges {
        files: Vec<SessionFileChange>,
    },
    /// What a rewind would do, for the user to confirm (answers `rewind` without `confirm`).
    RewindPlanned {
        plan: RewindPlan,
    },
    /// The workspace was rewound to before a message (or, `undone`, that rewind was undone);
    /// the workspace before it is a checkpoint, so it can be undone.
    Rewound {
        before_message: u32,
        #[serde(default)]
        undone: bool,
        changes: Vec<WorkspaceChange>,
    },
    /// How a command runs (or ran): confined or not, and what the sandbox refused.
    SandboxChanged {
        call_id: String,
        sandbox: SandboxNote,
    },
    /// An `undo_change` was refused, and why (the file changed since, nothing is kept for the
    /// call...); nothing was changed.
    UndoRefused {
        call_id: String,
        reason: String,
    },
    /// An "always allow" rule was added.
    RuleAdded {
        rule: String,
        scope: RuleScope,
    },
    ApprovalModeChanged {
        mode: ApprovalMode,
    },
    /// The session's next request goes to `model` ([`Op::SetModel`](super::Op::SetModel));
    /// `usage` is the summary for it (its context window and prices).
    ModelChanged {
        model: String,
        usage: UsageSummary,
    },
    /// Tokens of the last model request, then (flattened) the session's running totals, its
    /// estimated cost and the context the last request used.
    Usage {
        #[ts(type = "number")]
        input: u64,
        #[ts(type = "number")]
        output: u64,
        #[ts(type = "number")]
        cache_read: u64,
        #[ts(type = "number")]
        cache_write: u64,
        #[serde(flatten)]
        #[ts(flatten)]
        session: UsageSummary,
    },
    /// The provider is retrying a failed request.
    Retrying {
        attempt: u32,
        max_attempts: u32,
        #[ts(type = "number")]
        delay_ms: u64,
        message: String,
    },
    /// Something failed that the user should see; the session goes on.
    Error {
        message: String,
    },
    /// The same tool failed `failures` times in a row: `continue` or `cancel`.
    Paused {
        call_id: String,
        tool: String,
        failures: u32,
        message: String,
    },
    /// The task goes on after a pause.
    Resumed,
    /// The task waits before it starts working, and why (another task works in the same
    /// folder); it starts by itself, and Stop ends the wait.
    Waiting {
        message: String,
    },
    /// The older part of the conversation is being summarised by the model to fit its context
    /// window (a request of its own; [`EventMsg::ContextCompacted`] follows when it is done).
    ContextCompacting {
        /// Messages that the summary will replace.
        messages: u32,
        #[ts(type = "number")]
        tokens_before: u64,
    },
    /// The conversation was made to fit the model's context window: old tool outputs were
    /// elided (the stored history keeps them) and/or `removed_messages` older messages were
    /// replaced by one summary (estimated tokens before and after).
    ContextCompacted {
        elided_outputs: u32,
        removed_messages: u32,
        #[ts(type = "number")]
        tokens_before: u64,
        #[ts(type = "number")]
        tokens_after: u64,
    },
    /// A hook ran: on the card of `call_id`, or (for a message, a stop, the session) in the
    /// conversation.
    HookRan {
        call_id: Option<String>,
        run: HookRun,
    },
    /// Part of the configuration the session reads is broken or is not used as written: a
    /// settings file that does not parse (its hooks do not run), a skill without front matter,
    /// an MCP entry that cannot start, a rule file that cannot be read. `message` names the file
    /// and says what does not happen because of it. Each is sent once in a session: when the
    /// session starts, or when it is first seen (the next task's start; for hooks, the next time
    /// their files are read).
    ConfigWarning {
        area: ConfigArea,
        message: String,
    },
    /// The workspace's files name hooks the user has not approved as they are now: they do not
    /// run until [`Op::ConsentHooks`](super::Op::ConsentHooks) names `view.consent_hash`.
    HooksAwaitConsent {
        view: HooksView,
    },
    /// The task ended, and why.
    TaskEnded {
        reason: TaskEndReason,
    },
    /// Files of the workspace changed on disk (by the agent or by anyone else), after a quiet
    /// moment: workspace-relative paths with `/`, sorted, without duplicates, ignored files and
    /// `.git/`; at most [`FILES_CHANGED_LIMIT`], `more` counts the rest.
    FilesChanged {
        paths: Vec<String>,
        more: u32,
    },
    /// What the session's external agent offers now: its settings (model, its own mode, …)
    /// and its own `/` commands. Sent when the agent starts and each time it changes them,
    /// and after a `snapshot`.
    AgentSettings {
        settings: Vec<AgentSetting>,
        commands: Vec<SlashEntry>,
    },
    /// The full state (answer to `snapshot`).
    Snapshot {
        session_id: String,
        mode: ApprovalMode,
        running: bool,
        messages: u32,
        calls: Vec<CallSnapshot>,
        usage: UsageSummary,
        /// The user's messages sent while a task ran, oldest first, that wait for its next
        /// turn, or (after a Stop) to be given back when it ends: they are not in the stored
        /// transcript, so a front end that attaches now shows them from here.
        queued: Vec<String>,
        /// Why the last task ended, while [`Op::Retry`](super::Op::Retry) may run it again
        /// (the transcript does not say), so a front end that attaches now can offer it.
        retry: Option<TaskEndReason>,
        /// The workspace's hooks that wait for the user's consent, as
        /// [`EventMsg::HooksAwaitConsent`] showed them, so a front end that attaches now asks.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        hooks_awaiting: Option<HooksView>,
    },
    /// The session ended; no more events follow.
    ShutdownComplete,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn retries_follow_errors_a_new_attempt_may_get_past_and_the_iteration_cap() {
        let error = |retryable| TaskEndReason::Error {
            message: "x".into(),
            retryable,
        };
        assert!(error(true).may_retry());
        assert!(!error(false).may_retry());
        assert!(TaskEndReason::IterationCap { max_iterations: 3 }.may_retry());
        for reason in [
            TaskEndReason::Cancelled,
            TaskEndReason::Stopped,
            TaskEndReason::FinalAnswer { text: "ok".into() },
            TaskEndReason::Completed {
                summary: "ok".into(),
            },
        ] {
            assert!(!reason.may_retry(), "{reason:?}");
        }
    }

    #[test]
    fn events_are_flat_tagged_json() {
        let event = Event {
            seq: 7,
            parent_call_id: None,
            msg: EventMsg::TaskEnded {
                reason: TaskEndReason::IterationCap { max_iterations: 3 },
            },
        };
        let value = serde_json::to_value(&event).unwrap();
        assert_eq!(
            value,
            json!({"seq": 7, "type": "task_ended", "reason": {"kind": "iteration_cap", "max_iterations": 3}})
        );
        let back: Event = serde_json::from_value(value).unwrap();
        assert_eq!(back, event);
    }

    #[test]
    fn usage_is_one_flat_object_with_the_session_summary() {
        let event = Event {
            seq: 3,
            parent_call_id: None,
            msg: EventMsg::Usage {
                input: 1,
                output: 2,
                cache_read: 3,
                cache_write: 4,
                session: UsageSummary {
                    total_input: 10,
                    total_output: 20,
                    total_cache_read: 300,
                    total_cache_write: 40,
                    cache_saved_usd: Some(0.0008),
                    cost_usd: Some(0.0042),
                    context_used: 8,
                    context_window: 200_000,
                },
            },
        };
        let value = serde_json::to_value(&event).unwrap();
        assert_eq!(
            value,
            json!({"seq": 3, "type": "usage", "input": 1, "output": 2, "cache_read": 3,
                   "cache_write": 4, "total_input": 10, "total_output": 20,
                   "total_cache_read": 300, "total_cache_write": 40, "cache_saved_usd": 0.0008,
                   "cost_usd": 0.0042,
                   "context_used": 8, "context_window": 200_000})
        );
        let back: Event = serde_json::from_value(value).unwrap();
        assert_eq!(back, event);
    }

    #[test]
    fn updates_carry_only_what_changed() {
        let event = Event {
            seq: 1,
            parent_call_id: None,
            msg: EventMsg::ToolCallUpdated {
                call_id: "c".into(),
                state: Some(CallState::Validating),
                args: Vec::new(),
                preview: None,
                status: None,
                images: None,
                title: None,
            },
        };
        let text = serde_json::to_string(&event).unwrap();
        assert_eq!(
            text,
            r#"{"seq":1,"type":"tool_call_updated","call_id":"c","state":"validating","args":[]}"#
        );
    }

    #[test]
    fn events_of_a_sub_agent_name_the_parent_call() {
        let event = Event {
            seq: 4,
            parent_call_id: Some("t1".into()),
            msg: EventMsg::TextDelta { text: "hi".into() },
        };
        let value = serde_json::to_value(&event).unwrap();
        assert_eq!(
            value,
            json!({"seq": 4, "parent_call_id": "t1", "type": "text_delta", "text": "hi"})
        );
        let back: Event = serde_json::from_value(value).unwrap();
        assert_eq!(back, event);
    }
}
