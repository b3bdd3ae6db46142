//! The user's retry: after a task ended with an error that a new attempt may get past (a
//! server that stayed unavailable through every automatic retry, a connection that dropped in
//! the middle of the answer) or at the iteration cap, [`Op::Retry`](crate::protocol::Op::Retry)
//! runs the model again on the conversation as it stands, with no new message from the user.
//!
//! Nothing already received is lost: a cut-off answer stays in the history as the model wrote
//! it, its calls that never ran have their "not run" results, and when the history ends with
//! that answer the model is told, in a note the user does not see as a message of theirs, that
//! it was cut off and should go on.

use crate::agent::task::user_input::UserInput;
use crate::protocol::TaskEndReason;

/// What a task starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TaskStart {
    /// A message of the user.
    Message(UserInput),
    /// The user's retry; `cut_off` when the history ends with the answer the error cut off.
    Retry { cut_off: bool },
}

/// The end of the last task, while it may be run again with [`Op::Retry`](crate::protocol::Op::Retry).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PendingRetry {
    /// Why it ended (a snapshot tells a window that attaches now).
    pub reason: TaskEndReason,
    /// Whether the history ends with the answer the error cut off.
    pub cut_off: bool,
}
