//! The event a [`SseDecoder`](super::SseDecoder) dispatches.

use serde::{Deserialize, Serialize};

/// One dispatched server-sent event.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SseEvent {
    /// The `event:` name, or `None` for the default type (`message`): no `event:` field, or an
    /// empty one.
    pub event: Option<String>,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
    /// The last event id (it persists across events, as in the spec), or `None` if no `id:`
    /// field was seen or the last one was empty.
    pub id: Option<String>,
    /// The reconnection time in milliseconds, if this event's block had a valid `retry:` field.
    pub retry: Option<u64>,
}

/// The data OpenAI-style streams send as their last event.
pub const DONE_SENTINEL: &str = "[DONE]";

impl SseEvent {
    /// Whether this is the `data: [DONE]` end-of-stream marker of OpenAI-style streams.
    ///
    /// The decoder passes `[DONE]` through as ordinary data; it is for the provider adapter to
    /// decide what it means.
    pub fn is_done(&self) -> bool {
        self.data == DONE_SENTINEL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_is_recognised_only_as_the_whole_data() {
        let done = SseEvent {
            data: "[DONE]".into(),
            ..SseEvent::default()
        };
        assert!(done.is_done());
        let other = SseEvent {
            data: "[DONE] ".into(),
            ..SseEvent::default()
        };
        assert!(!other.is_done());
    }
}
