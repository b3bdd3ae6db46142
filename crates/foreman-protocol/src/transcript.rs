//! A stored session as the user saw it: their messages, the assistant's answers, the tool calls
//! with their final state, and why tasks ended.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::attachment::AttachmentView;
use crate::call::CallSnapshot;
use crate::event::TaskEndReason;
use crate::hooks::HookRun;
use crate::records::UsageTotals;

/// One entry of the conversation. The lines the history sent to the model does not hold
/// (`TaskEnded`, `Compacted`) are stored as such (the store's notices).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TranscriptItem {
    User {
        text: String,
        /// What the message attached.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<AttachmentView>>")]
        attachments: Vec<AttachmentView>,
    },
    Assistant {
        text: String,
    },
    /// A tool call with its final state (result, preview, status).
    Tool {
        call: Box<CallSnapshot>,
    },
    /// A task ended other than with an answer (the user's Stop, an error, the iteration
    /// cap...), where the live conversation said so.
    TaskEnded {
        reason: TaskEndReason,
    },
    /// The conversation was made to fit the model's context window here, as
    /// [`EventMsg::ContextCompacted`](crate::EventMsg::ContextCompacted) said live.
    Compacted {
        elided_outputs: u32,
        removed_messages: u32,
        #[ts(type = "number")]
        tokens_before: u64,
        #[ts(type = "number")]
        tokens_after: u64,
    },
    /// A hook ran for no call (a message sent, the agent's stop, the session's start), as
    /// [`EventMsg::HookRan`](crate::EventMsg::HookRan) said live.
    Hook {
        run: HookRun,
    },
    /// The workspace was rewound to before the user's message `before_message` (or, `undone`,
    /// that rewind was undone), changing `files` files, as
    /// [`EventMsg::Rewound`](crate::EventMsg::Rewound) said live: a reopened conversation shows
    /// what came after that message as rewound.
    Rewound {
        before_message: u32,
        undone: bool,
        files: u32,
    },
}

impl TranscriptItem {
    /// Whether this is a stored line of its own (see the store's notices) rather than one
    /// rebuilt from the history.
    pub fn is_notice(&self) -> bool {
        match self {
            // The answer itself says why such a task ended.
            Self::TaskEnded { reason } => !matches!(reason, TaskEndReason::FinalAnswer { .. }),
            Self::Compacted { .. } | Self::Hook { .. } | Self::Rewound { .. } => true,
            _ => false,
        }
    }
}

/// A stored session for display.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Transcript {
    pub session_id: String,
    pub items: Vec<TranscriptItem>,
    /// The task list from `todo_write`, as stored.
    #[ts(type = "unknown")]
    pub todos: serde_json::Value,
    pub usage: UsageTotals,
}

impl Transcript {
    /// How many messages of the user it shows: the number the next one they send gets (see
    /// [`EventMsg::UserMessageTaken`](crate::EventMsg::UserMessageTaken)).
    pub fn user_messages(&self) -> usize {
        self.items
            .iter()
            .filter(|item| matches!(item, TranscriptItem::User { .. }))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::assert_bindings_current;

    #[test]
    fn a_task_that_answered_is_stored_but_not_shown_as_a_line() {
        let answered = TranscriptItem::TaskEnded {
            reason: TaskEndReason::FinalAnswer {
                text: String::new(),
            },
        };
        assert!(!answered.is_notice());
        let stopped = TranscriptItem::TaskEnded {
            reason: TaskEndReason::Cancelled,
        };
        assert!(stopped.is_notice());
    }

    #[test]
    fn bindings_are_current() {
        assert_bindings_current::<Transcript>();
        assert_bindings_current::<TranscriptItem>();
    }
}
