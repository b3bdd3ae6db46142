//! Server-sent events, decoded at the byte level.
//!
//! Model providers stream their responses as `text/event-stream`. [`SseDecoder`] turns the body's
//! byte chunks, cut anywhere (inside a UTF-8 character, between a CR and its LF), into
//! [`SseEvent`]s, following the HTML standard's event-stream rules: LF, CRLF and lone CR line
//! endings, a leading BOM, `:` comments, multi-line `data:`, and no dispatch for events without
//! data.
//!
//! The decoder knows nothing of any provider: OpenAI's `data: [DONE]` end marker is passed through
//! as ordinary data (see [`SseEvent::is_done`]), and the JSON in `data` is the provider's to
//! parse.

mod decoder;
mod event;
mod lines;
#[cfg(test)]
mod proptests;

pub use decoder::SseDecoder;
pub use event::{DONE_SENTINEL, SseEvent};
