//! The person's retry: after a task ended with an error that a new attempt may get past (a
//! server that stayed unavailable through every automatic retry, a connection that dropped in
//! the middle of the answer) or at the iteration cap, [`Op::Retry`](crate::protocol::Op::Retry)
//! runs the model again on the conversation as it stands, with no new message from the person.
//!
//! Nothing already received is lost: a cut-off answer stays in the history as the model wrote
//! it, its calls that never ran have their "not run" results, and when the history ends with
//! that answer the model is told, in a note the person does not see as a message of theirs, that
//! it was cut off and should go on.

use super::Engine;
use crate::protocol::{EventMsg, TaskEndReason};

/// How every retry note starts: what [`is_retry_note`] knows it by, so the wording after it can
/// change without old notes turning into messages of the person.
const NOTE_START: &str = "[Retry] ";

/// What the model is told when the history ends with its own cut-off answer.
pub const RETRY_NOTE: &str = "[Retry] Your answer above was cut off by an error before it was \
     complete, and the person asked you to try again. Continue from where it stopped; do not \
     repeat what you already wrote.";

/// Whether `text`, a user message in the history, is the model's note about a retry (a reopened
/// conversation does not show it as a message of the person).
pub fn is_retry_note(text: &str) -> bool {
    text.starts_with(NOTE_START)
}

/// What a task starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TaskStart {
    /// A message of the person.
    Message(String),
    /// The person's retry; `cut_off` when the history ends with the answer the error cut off.
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

impl Engine {
    /// Answers [`Op::Retry`](crate::protocol::Op::Retry) while no task runs.
    pub(crate) async fn retry_task(&mut self) {
        match self.retry.take() {
            Some(PendingRetry { cut_off, .. }) => {
                self.run_task_from(TaskStart::Retry { cut_off }).await;
            }
            None => self.events.emit_session(EventMsg::Error {
                message: "There is nothing to retry: the last task did not end with an error \
                          that a new attempt could get past."
                    .into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_note_is_known_by_its_start() {
        assert!(is_retry_note(RETRY_NOTE));
        assert!(is_retry_note("[Retry] Go on."));
        assert!(!is_retry_note("please try again"));
        assert!(!is_retry_note("Retry it [Retry]"));
    }
}
