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
use crate::protocol::EventMsg;
use crate::providers::Message;

/// What the model is told when the history ends with its own cut-off answer.
pub const RETRY_NOTE: &str = "Your answer above was cut off by an error before it was complete, \
     and the person asked you to try again. Continue from where it stopped; do not repeat what \
     you already wrote.";

/// Whether `text`, a user message in the history, is the model's note about a retry (a reopened
/// conversation does not show it as a message of the person).
pub fn is_retry_note(text: &str) -> bool {
    text == RETRY_NOTE
}

impl Engine {
    /// Answers [`Op::Retry`](crate::protocol::Op::Retry) while no task runs.
    pub(crate) async fn retry_task(&mut self) {
        if self.retry_offered {
            self.run_task_with(None).await;
        } else {
            self.events.emit_session(EventMsg::Error {
                message: "There is nothing to retry: the last task did not end with an error \
                          that a new attempt could get past."
                    .into(),
            });
        }
    }

    /// Tells the model its last answer was cut off, when the history ends with that answer (a
    /// request that failed before any output leaves the person's message last, and calls that
    /// never ran leave their results last: the model can go on from either as it is).
    pub(crate) async fn record_retry_note(&mut self) {
        if matches!(self.history.last(), Some(Message::Assistant { .. })) {
            self.record(Message::user(RETRY_NOTE)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_note_itself_is_a_retry_note() {
        assert!(is_retry_note(RETRY_NOTE));
        assert!(!is_retry_note("please try again"));
        assert!(!is_retry_note(&format!("{RETRY_NOTE} and more")));
    }
}
