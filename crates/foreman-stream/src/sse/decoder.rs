//! The SSE decoder: bytes in, dispatched events out.
//!
//! Follows the event-stream interpretation of the HTML standard (section 9.2.6): `field: value`
//! lines with one optional space after the colon, `:` comment lines, `data:` lines joined with
//! `\n`, and a blank line dispatching the event, unless no `data:` field was seen.

use super::event::SseEvent;
use super::lines::LineSplitter;

/// An incremental decoder of one `text/event-stream` byte stream.
///
/// Feed the body's chunks to [`push`](Self::push) as they arrive, cut anywhere; call
/// [`finish`](Self::finish) at the end of the body.
#[derive(Debug, Clone, Default)]
pub struct SseDecoder {
    lines: LineSplitter,
    fields: EventFields,
}

/// The fields of the event being received.
#[derive(Debug, Clone, Default)]
struct EventFields {
    event: String,
    /// The data lines, each followed by `\n`.
    data: String,
    last_id: String,
    retry: Option<u64>,
    reconnection_time: Option<u64>,
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds a chunk of the body and returns the events it completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        let fields = &mut self.fields;
        self.lines
            .push(bytes, &mut |line| fields.line(line, &mut events));
        events
    }

    /// Ends the stream and returns the event it completed, if any.
    ///
    /// The spec discards an event not followed by a blank line when the stream ends. This
    /// decoder dispatches it instead (an unterminated last line included): recorded provider
    /// streams end right after their last `data:` line, and a stream cut mid-event still shows up,
    /// as data that does not parse. The decoder is then ready for a new stream.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut events = Vec::new();
        let fields = &mut self.fields;
        self.lines
            .finish(&mut |line| fields.line(line, &mut events));
        fields.dispatch(&mut events);
        *self = Self::default();
        events
    }

    /// The reconnection time from the last valid `retry:` field, in milliseconds.
    pub fn reconnection_time(&self) -> Option<u64> {
        self.fields.reconnection_time
    }

    /// The last event id seen, to send as `Last-Event-ID` when reconnecting.
    pub fn last_event_id(&self) -> Option<&str> {
        Some(self.fields.last_id.as_str()).filter(|id| !id.is_empty())
    }
}

impl EventFields {
    fn line(&mut self, line: &[u8], events: &mut Vec<SseEvent>) {
        if line.is_empty() {
            self.dispatch(events);
            return;
        }
        if line.first() == Some(&b':') {
            return;
        }
        let (name, value) = match memchr::memchr(b':', line) {
            Some(colon) => {
                let value = line.get(colon + 1..).unwrap_or_default();
                let value = value.strip_prefix(b" ").unwrap_or(value);
                (line.get(..colon).unwrap_or_default(), value)
            }
            None => (line, &b""[..]),
        };
        match name {
            b"event" => self.event = String::from_utf8_lossy(value).into_owned(),
            b"data" => {
                self.data.push_str(&String::from_utf8_lossy(value));
                self.data.push('\n');
            }
            b"id" if !value.contains(&0) => {
                self.last_id = String::from_utf8_lossy(value).into_owned();
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                // All digits, so this only fails on overflow: ignored like any invalid value.
                if let Some(ms) = std::str::from_utf8(value)
                    .ok()
                    .and_then(|digits| digits.parse().ok())
                {
                    self.retry = Some(ms);
                    self.reconnection_time = Some(ms);
                }
            }
            _ => {}
        }
    }

    /// A blank line: the event is dispatched if it has data, and the fields are reset.
    fn dispatch(&mut self, events: &mut Vec<SseEvent>) {
        let event = std::mem::take(&mut self.event);
        let retry = self.retry.take();
        if self.data.is_empty() {
            return;
        }
        let mut data = std::mem::take(&mut self.data);
        data.pop();
        events.push(SseEvent {
            event: Some(event).filter(|name| !name.is_empty()),
            data,
            id: Some(self.last_id.clone()).filter(|id| !id.is_empty()),
            retry,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(stream: &[u8]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut events = decoder.push(stream);
        events.extend(decoder.finish());
        events
    }

    fn data(data: &str) -> SseEvent {
        SseEvent {
            data: data.into(),
            ..SseEvent::default()
        }
    }

    #[test]
    fn lf_crlf_and_cr_line_endings_are_equivalent() {
        for stream in [
            &b"data: a\n\ndata: b\n\n"[..],
            b"data: a\r\n\r\ndata: b\r\n\r\n",
            b"data: a\r\rdata: b\r\r",
            b"data: a\r\n\ndata: b\r\r\n",
        ] {
            assert_eq!(decode(stream), [data("a"), data("b")], "{stream:?}");
        }
    }

    #[test]
    fn multi_line_data_is_joined_with_newlines() {
        assert_eq!(
            decode(b"data: first\ndata:second\ndata:  third\n\n"),
            [data("first\nsecond\n third")]
        );
    }

    #[test]
    fn only_one_space_after_the_colon_is_removed() {
        assert_eq!(decode(b"data:x\n\n"), [data("x")]);
        assert_eq!(decode(b"data: x\n\n"), [data("x")]);
        assert_eq!(decode(b"data:  x\n\n"), [data(" x")]);
        assert_eq!(decode(b"data:\tx\n\n"), [data("\tx")]);
    }

    #[test]
    fn comments_are_ignored() {
        assert_eq!(
            decode(b": ping\n\n:\ndata: a\n: in the middle\ndata: b\n\n"),
            [data("a\nb")]
        );
    }

    #[test]
    fn event_names_apply_to_one_event() {
        let events = decode(b"event: delta\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n");
        assert_eq!(events[0].event.as_deref(), Some("delta"));
        assert_eq!(events[1].event, None);
        assert_eq!(events[2].event, None);
    }

    #[test]
    fn events_without_data_are_not_dispatched() {
        assert_eq!(decode(b"event: ping\n\n\n\nid: 1\n\nretry: 10\n\n"), []);
        assert_eq!(decode(b"event: x\n\ndata: a\n\n"), [data("a")]);
    }

    #[test]
    fn an_empty_data_field_still_dispatches_an_event() {
        assert_eq!(decode(b"data\n\ndata:\n\n"), [data(""), data("")]);
        assert_eq!(decode(b"data\ndata\n\n"), [data("\n")]);
    }

    #[test]
    fn ids_persist_across_events_and_an_empty_id_clears() {
        let events = decode(b"id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: x\0y\ndata: d\n\n");
        let ids: Vec<_> = events.iter().map(|e| e.id.as_deref()).collect();
        assert_eq!(ids, [Some("7"), Some("7"), None, None]);
    }

    #[test]
    fn retry_takes_only_digits() {
        let mut decoder = SseDecoder::new();
        let events = decoder.push(
            b"retry: 1500\ndata: a\n\nretry: 1x\ndata: b\n\nretry: 99999999999999999999999\n\n",
        );
        assert_eq!(events[0].retry, Some(1500));
        assert_eq!(events[1].retry, None);
        assert_eq!(decoder.reconnection_time(), Some(1500));
    }

    #[test]
    fn unknown_fields_and_field_names_with_spaces_are_ignored() {
        assert_eq!(decode(b"foo: bar\ndata : x\ndata: y\n\n"), [data("y")]);
    }

    #[test]
    fn a_bom_at_the_start_is_skipped() {
        assert_eq!(decode(b"\xEF\xBB\xBFdata: a\n\n"), [data("a")]);
        // Without the skip the first field name would be "\u{feff}data" and ignored.
        let mut decoder = SseDecoder::new();
        assert!(decoder.push(b"\xEF\xBB").is_empty());
        assert_eq!(decoder.push(b"\xBFdata: a\n\n"), [data("a")]);
    }

    #[test]
    fn chunks_cut_inside_a_character_and_between_cr_and_lf() {
        let stream = "data: é😀\r\n\r\n".as_bytes();
        let mut decoder = SseDecoder::new();
        let mut events = Vec::new();
        for byte in stream {
            events.extend(decoder.push(std::slice::from_ref(byte)));
        }
        assert_eq!(events, [data("é😀")]);
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        assert_eq!(decode(b"data: a\xFFb\n\n"), [data("a\u{FFFD}b")]);
    }

    #[test]
    fn done_is_passed_through_as_data() {
        let events = decode(b"data: {\"x\":1}\n\ndata: [DONE]\n\n");
        assert_eq!(events.len(), 2);
        assert!(!events[0].is_done());
        assert!(events[1].is_done());
        assert_eq!(events[1].data, "[DONE]");
    }

    #[test]
    fn finish_dispatches_an_event_the_stream_did_not_end() {
        let mut decoder = SseDecoder::new();
        assert!(decoder.push(b"data: a\n\ndata: b").len() == 1);
        assert_eq!(decoder.finish(), [data("b")]);
        assert_eq!(decoder.finish(), []);
    }

    #[test]
    fn last_event_id_is_kept_for_reconnecting() {
        let mut decoder = SseDecoder::new();
        decoder.push(b"id: 42\ndata: a\n\n");
        assert_eq!(decoder.last_event_id(), Some("42"));
    }
}
