//! The task's parts: whether a task runs and how it is stopped ([`TaskState`], with the end a
//! retry would run again from, [`PendingRetry`]), and the user's messages on their way to the
//! model ([`Incoming`], each a [`UserInput`]).

use std::collections::VecDeque;

use tokio_util::sync::CancellationToken;

use crate::agent::slash::state::SlashTask;
use crate::protocol::{AttachInput, ImageInput, TaskEndReason};
use crate::slash::Expanded;

/// The user's messages on their way to the model.
#[derive(Debug, Default)]
pub(crate) struct Incoming {
    /// Sent while a task runs, for its next turn.
    pub(crate) queued: VecDeque<UserInput>,
    /// Queued when the user stopped the task: given back after it ends.
    pub(crate) returning: Vec<UserInput>,
    /// The user's messages in the session so far (the number of the next one taken).
    pub(crate) user_messages: usize,
    /// The most of one file a user message attaches.
    pub(crate) attach_max_file_bytes: usize,
    /// The `UserPromptSubmit` runs of the message being taken, kept once it is.
    pub(crate) hook_runs: Vec<crate::protocol::HookRun>,
}

/// Whether a task runs, how it is stopped, and what it changed for itself.
#[derive(Debug, Default)]
pub(crate) struct TaskState {
    /// The end of the last task, while [`Op::Retry`](crate::protocol::Op::Retry) may run again
    /// from it.
    pub(crate) retry: Option<PendingRetry>,
    pub(crate) cancel: CancellationToken,
    pub(crate) running: bool,
    /// The session is shutting down: no task runs after this one.
    pub(crate) shutdown: bool,
    /// While a sub-agent runs, how many messages the session's own history holds (the frame's
    /// history is then the child's); `None` otherwise.
    pub(crate) session_messages: Option<usize>,
    /// For a task in the folder itself: the folder each of its tasks takes.
    pub(crate) folder_turn: Option<crate::tasks::locks::FolderTurn>,
    /// What the running task's `/command` changed (its model, its tools).
    pub(crate) slash: SlashTask,
}

/// What a task starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TaskStart {
    /// A message of the user.
    Message(UserInput),
    /// The user's retry; `cut_off` when the history ends with the answer the error cut off.
    Retry { cut_off: bool },
}

/// The end of the last task, while the user may run it again
/// ([`Op::Retry`](crate::protocol::Op::Retry)): after an error a
/// new attempt may get past (a server that stayed unavailable through every automatic retry, a
/// connection that dropped in the middle of the answer) or at the iteration cap, a retry runs
/// the model again on the conversation as it stands, with no new message from the user.
///
/// Nothing already received is lost: a cut-off answer stays in the history as the model wrote
/// it, its calls that never ran have their "not run" results, and when the history ends with
/// that answer the model is told, in a note the user does not see as a message of theirs, that
/// it was cut off and should go on.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PendingRetry {
    /// Why it ended (a snapshot tells a window that attaches now).
    pub reason: TaskEndReason,
    /// Whether the history ends with the answer the error cut off.
    pub cut_off: bool,
}

/// A message of the user as it waits for the model: its text and what it asks to attach. The
/// attachments are read when the model takes the message (`task/run.rs`), so a queued message
/// attaches files as they are when the model reads it. A `/command` is expanded when the
/// message arrives, so a missing argument is refused at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UserInput {
    /// What the user typed (`/review 42`): what the conversation shows.
    pub(crate) text: String,
    pub(crate) attach: Vec<AttachInput>,
    /// The command or skill its `/name` runs, as the model reads it (see `slash/input.rs`).
    pub(crate) slash: Option<Expanded>,
}

impl UserInput {
    /// The images it carries (its paths are mentioned in its text).
    pub(crate) fn images(&self) -> impl Iterator<Item = &ImageInput> {
        self.attach.iter().filter_map(|a| match a {
            AttachInput::Image(image) => Some(image),
            AttachInput::Path { .. } => None,
        })
    }
}
