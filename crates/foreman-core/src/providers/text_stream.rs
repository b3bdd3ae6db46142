//! Streaming the text protocol: prose passes through, a tool call appears as it is written.
//!
//! Text is forwarded as `TextDelta` until something that may open the JSON object shows up: a `{`
//! followed by `"`, or a ```` ``` ```` fence whose body starts with `{`. From there text is held
//! and fed to a [`PartialJsonParser`]; if it stops being a prefix of a JSON document (even after
//! escape repair) before a call has started, it was prose after all: it is released and scanning
//! goes on. As soon as the object's `"action"` value is complete the call appears like a native one:
//! `ToolCallStart` then `ToolCallArgsDelta` fragments with the object's raw text (including the
//! `action` field), up to the object's closing brace. When the answer ends, the full text goes
//! through [`extract_call`] and the authoritative `ToolCallEnd` follows; if no call is found, the
//! held text is released as `TextDelta`.
//!
//! The first call's closing brace ends the answer ([`TextCallStreamer::call_closed`],
//! [`TextCallStreamer::finish_at_call`]): small local models often ramble on after the object,
//! and waiting for them only delays the call. What they wrote after it is dropped.

use super::event::{ProviderEvent, StopReason, ToolArguments};
use super::text_extract::{extract_call, repair_escapes};
use crate::partial_json::{PartialJsonParser, parse_partial};

/// Brace depth tracking of the JSON object being written (string- and escape-aware).
#[derive(Debug, Default)]
struct ObjectScan {
    scanned: usize,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// Byte offset (in the full text) just past the closing brace.
    end: Option<usize>,
}

impl ObjectScan {
    fn advance(&mut self, text: &str, start: usize) {
        if self.end.is_some() {
            return;
        }
        let from = start + self.scanned;
        for (offset, c) in text[from..].char_indices() {
            let at = from + offset;
            if self.in_string {
                match (self.escaped, c) {
                    (true, _) => self.escaped = false,
                    (false, '\\') => self.escaped = true,
                    (false, '"') => self.in_string = false,
                    _ => {}
                }
            } else {
                match c {
                    '"' => self.in_string = true,
                    '{' => self.depth += 1,
                    '}' => {
                        self.depth = self.depth.saturating_sub(1);
                        if self.depth == 0 {
                            self.end = Some(at + 1);
                            self.scanned = at + 1 - start;
                            return;
                        }
                    }
                    _ => {}
                }
            }
        }
        self.scanned = text.len() - start;
    }
}

/// Whether the held object text is still a prefix of a JSON document.
#[derive(Debug)]
struct ObjectCheck {
    /// Fed incrementally while the text is valid as written (boxed: the parser is large).
    parser: Option<Box<PartialJsonParser>>,
    fed: usize,
}

impl ObjectCheck {
    fn new() -> Self {
        Self {
            parser: Some(Box::new(PartialJsonParser::new())),
            fed: 0,
        }
    }

    /// Whether `object` (all object text so far) can still be the call's JSON.
    fn still_json(&mut self, object: &str) -> bool {
        if let Some(parser) = self.parser.as_mut() {
            if parser.push(&object[self.fed..]).is_ok() {
                self.fed = object.len();
                return true;
            }
            // Illegal escapes (`\;`) are repaired at the end; check the repaired text from now on.
            self.parser = None;
        }
        // A trailing backslash may start a valid escape whose next character is still to come.
        let settled = object.strip_suffix('\\').unwrap_or(object);
        parse_partial(&repair_escapes(settled)).is_ok()
    }
}

#[derive(Debug)]
enum Mode {
    Prose,
    /// A possible call starting at the object's `{` (`start`).
    Object {
        start: usize,
        scan: ObjectScan,
        check: ObjectCheck,
    },
}

/// What the prose scanner found at the unforwarded part of the text.
enum Found {
    /// Object opening `{` at `start`, held text begins at `held`.
    Object {
        held: usize,
        start: usize,
    },
    /// Undecidable yet: hold from here.
    Hold(usize),
    Nothing,
}

/// The text-protocol state of one answer.
#[derive(Debug)]
pub(crate) struct TextCallStreamer {
    text: String,
    forwarded: usize,
    mode: Mode,
    tools: Vec<String>,
    call_id: String,
    started: bool,
    args_sent: usize,
}

fn next_non_ws(text: &str, from: usize) -> Option<(usize, char)> {
    text[from..]
        .char_indices()
        .find(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (from + i, c))
}

fn find_opening(text: &str, from: usize) -> Found {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => match next_non_ws(text, i + 1) {
                None => return Found::Hold(i),
                Some((_, '"')) => return Found::Object { held: i, start: i },
                Some(_) => {}
            },
            b'`' => {
                let rest = &text[i..];
                if rest.len() < 3 && "```".starts_with(rest) {
                    return Found::Hold(i);
                }
                if rest.starts_with("```") {
                    let Some(newline) = rest.find('\n') else {
                        return Found::Hold(i);
                    };
                    match next_non_ws(text, i + newline + 1) {
                        None => return Found::Hold(i),
                        Some((start, '{')) => return Found::Object { held: i, start },
                        Some(_) => {
                            i += 3;
                            continue;
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    Found::Nothing
}

/// The value of the object's `"action"` field once its closing quote has arrived, and the offset
/// just past that quote.
fn action_name(object: &str) -> Option<(String, usize)> {
    let key = object.find("\"action\"")?;
    let rest = object[key + 8..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let value_start = object.len() - rest.len();
    let mut name = String::new();
    let mut escaped = false;
    for (offset, c) in rest.char_indices() {
        match (escaped, c) {
            (true, c) => {
                name.push(c);
                escaped = false;
            }
            (false, '\\') => escaped = true,
            (false, '"') => return Some((name, value_start + offset + 1)),
            (false, c) => name.push(c),
        }
    }
    None
}

impl TextCallStreamer {
    /// `tools` are the names the model may call.
    pub(crate) fn new(tools: Vec<String>) -> Self {
        Self {
            text: String::new(),
            forwarded: 0,
            mode: Mode::Prose,
            tools,
            call_id: format!("textcall_{:012x}", fastrand::u64(..) & 0xffff_ffff_ffff),
            started: false,
            args_sent: 0,
        }
    }

    fn forward(&mut self, until: usize, events: &mut Vec<ProviderEvent>) {
        if until > self.forwarded {
            events.push(ProviderEvent::TextDelta(
                self.text[self.forwarded..until].to_string(),
            ));
            self.forwarded = until;
        }
    }

    /// Takes the next piece of answer text.
    pub(crate) fn push(&mut self, delta: &str) -> Vec<ProviderEvent> {
        self.text.push_str(delta);
        let mut events = Vec::new();
        // Where to look for an object opening (moves past a rejected candidate).
        let mut scan_from = self.forwarded;
        loop {
            if let Mode::Prose = self.mode {
                match find_opening(&self.text, scan_from) {
                    Found::Nothing => self.forward(self.text.len(), &mut events),
                    Found::Hold(at) => self.forward(at, &mut events),
                    Found::Object { held, start } => {
                        self.forward(held, &mut events);
                        self.mode = Mode::Object {
                            start,
                            scan: ObjectScan::default(),
                            check: ObjectCheck::new(),
                        };
                    }
                }
            }
            match &mut self.mode {
                Mode::Object { start, scan, check } if !self.started => {
                    let start = *start;
                    scan.advance(&self.text, start);
                    let limit = scan.end.unwrap_or(self.text.len());
                    let object = &self.text[start..limit];
                    // Only the text up to the end of the action name decides whether this is a
                    // call, so the decision does not depend on how the text was chunked.
                    let decisive = action_name(object).map_or(object.len(), |(_, end)| end);
                    if check.still_json(&object[..decisive]) {
                        break;
                    }
                    // Not JSON: prose after all. Look again after this brace.
                    self.mode = Mode::Prose;
                    scan_from = start + 1;
                }
                _ => break,
            }
        }
        if let Mode::Object { start, scan, .. } = &mut self.mode {
            let start = *start;
            scan.advance(&self.text, start);
            let limit = scan.end.unwrap_or(self.text.len());
            if !self.started
                && let Some((name, _)) = action_name(&self.text[start..limit])
            {
                self.started = true;
                self.args_sent = start;
                events.push(ProviderEvent::ToolCallStart {
                    id: self.call_id.clone(),
                    name,
                });
            }
            if self.started && limit > self.args_sent {
                events.push(ProviderEvent::ToolCallArgsDelta {
                    id: self.call_id.clone(),
                    fragment: self.text[self.args_sent..limit].to_string(),
                });
                self.args_sent = limit;
            }
        }
        events
    }

    /// Whether the call's object has closed: nothing the model writes after it can change the
    /// call, so the answer can end here.
    pub(crate) fn call_closed(&self) -> bool {
        self.started && matches!(&self.mode, Mode::Object { scan, .. } if scan.end.is_some())
    }

    /// Ends the answer at the call's closing brace ([`Self::call_closed`]): the text after it is
    /// dropped, and the call ends as at the end of an answer.
    pub(crate) fn finish_at_call(&mut self) -> (Vec<ProviderEvent>, StopReason) {
        if let Mode::Object { scan, .. } = &self.mode
            && let Some(end) = scan.end
        {
            self.text.truncate(end);
        }
        self.finish(StopReason::ToolUse)
    }

    /// The answer broke off (the stream failed or was cancelled) before it ended: the text held
    /// back while it might still have become a call is released as text, so the user and the
    /// history keep everything that arrived. A call that has started has had its text already,
    /// as its arguments.
    pub(crate) fn release(&mut self) -> Vec<ProviderEvent> {
        let mut events = Vec::new();
        if !self.started {
            self.forward(self.text.len(), &mut events);
        }
        events
    }

    /// The answer is over; `inner` is why the model stopped. Returns the closing events (without
    /// `Stop`) and the stop reason to report.
    pub(crate) fn finish(&mut self, inner: StopReason) -> (Vec<ProviderEvent>, StopReason) {
        let mut events = Vec::new();
        // The extractor's candidates first; then the object the stream identified (which the
        // outermost-braces candidate misses when prose before it contains braces).
        let streamed = match &self.mode {
            Mode::Object { start, scan, .. } => {
                Some(&self.text[*start..scan.end.unwrap_or(self.text.len())])
            }
            Mode::Prose => None,
        };
        match extract_call(&self.text).or_else(|| streamed.and_then(extract_call)) {
            Some(call) => {
                if !self.started {
                    if let Mode::Prose = self.mode {
                        self.forward(self.text.len(), &mut events);
                    }
                    self.started = true;
                    events.push(ProviderEvent::ToolCallStart {
                        id: self.call_id.clone(),
                        name: call.action.clone(),
                    });
                }
                let arguments = if self.tools.contains(&call.action) {
                    ToolArguments::Parsed(serde_json::Value::Object(call.params))
                } else {
                    ToolArguments::Invalid {
                        raw: self.text.clone(),
                        message: format!(
                            "Unknown action `{}`. Available tools: {}. Reply with one JSON object \
                             {{\"action\": \"<tool>\", ...parameters}}, or plain text for a direct answer.",
                            call.action,
                            self.tools.join(", ")
                        ),
                    }
                };
                events.push(ProviderEvent::ToolCallEnd {
                    id: self.call_id.clone(),
                    arguments,
                });
                (events, StopReason::ToolUse)
            }
            None if self.started => {
                let raw = match &self.mode {
                    Mode::Object { start, .. } => self.text[*start..].to_string(),
                    Mode::Prose => self.text.clone(),
                };
                let (arguments, stop) = if inner == StopReason::MaxTokens {
                    (ToolArguments::Truncated { raw }, StopReason::MaxTokens)
                } else {
                    let message =
                        "the tool call is not a valid JSON object; reply with exactly one \
                                   JSON object {\"action\": \"<tool>\", ...parameters}"
                            .to_string();
                    (ToolArguments::Invalid { raw, message }, StopReason::ToolUse)
                };
                events.push(ProviderEvent::ToolCallEnd {
                    id: self.call_id.clone(),
                    arguments,
                });
                (events, stop)
            }
            None => {
                self.forward(self.text.len(), &mut events);
                (events, inner)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(pieces: &[&str], inner: StopReason) -> (Vec<ProviderEvent>, StopReason) {
        let mut streamer = TextCallStreamer::new(vec!["read_file".into(), "grep".into()]);
        let mut events = Vec::new();
        for piece in pieces {
            events.extend(streamer.push(piece));
        }
        let (closing, stop) = streamer.finish(inner);
        events.extend(closing);
        (events, stop)
    }

    fn text_of(events: &[ProviderEvent]) -> String {
        events
            .iter()
            .filter_map(|e| match e {
                ProviderEvent::TextDelta(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    fn args_of(events: &[ProviderEvent]) -> String {
        events
            .iter()
            .filter_map(|e| match e {
                ProviderEvent::ToolCallArgsDelta { fragment, .. } => Some(fragment.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn plain_text_streams_through_unchanged() {
        let (events, stop) = run(
            &["The answer", " is `x` and {braces}", " too."],
            StopReason::EndTurn,
        );
        assert_eq!(text_of(&events), "The answer is `x` and {braces} too.");
        assert_eq!(stop, StopReason::EndTurn);
        assert!(
            events
                .iter()
                .all(|e| matches!(e, ProviderEvent::TextDelta(_)))
        );
        // The inline code was not held back until the end.
        assert_eq!(events.len(), 3);
    }

    #[test]
    fn fenced_call_appears_as_a_partial_call_while_streaming() {
        let mut streamer = TextCallStreamer::new(vec!["read_file".into()]);
        let first = streamer.push("I'll read it.\n```js");
        assert_eq!(text_of(&first), "I'll read it.\n");
        assert!(streamer.push("on\n{\"act").is_empty());
        let started = streamer.push("ion\": \"read_file\", \"pa");
        assert!(
            matches!(&started[0], ProviderEvent::ToolCallStart { name, .. } if name == "read_file")
        );
        assert_eq!(args_of(&started), "{\"action\": \"read_file\", \"pa");
        let more = streamer.push("th\": \"a}.txt\"}\n```\n");
        assert_eq!(args_of(&more), "th\": \"a}.txt\"}");
        let (closing, stop) = streamer.finish(StopReason::EndTurn);
        assert_eq!(stop, StopReason::ToolUse);
        assert!(matches!(
            &closing[0],
            ProviderEvent::ToolCallEnd { arguments: ToolArguments::Parsed(v), .. } if *v == json!({"path": "a}.txt"})
        ));
    }

    #[test]
    fn unknown_action_tells_the_model_the_tools() {
        let (events, stop) = run(&[r#"{"action": "delete_everything"}"#], StopReason::EndTurn);
        assert_eq!(stop, StopReason::ToolUse);
        let Some(ProviderEvent::ToolCallEnd {
            arguments: ToolArguments::Invalid { message, .. },
            ..
        }) = events.last()
        else {
            panic!("expected an invalid call: {events:?}");
        };
        assert!(message.contains("Unknown action `delete_everything`"));
        assert!(message.contains("read_file, grep"));
    }

    #[test]
    fn broken_or_cut_calls_are_reported_not_dropped() {
        let (events, stop) = run(
            &["{\"action\": \"grep\", \"pattern\": \"a"],
            StopReason::MaxTokens,
        );
        assert_eq!(stop, StopReason::MaxTokens);
        assert!(matches!(
            events.last(),
            Some(ProviderEvent::ToolCallEnd {
                arguments: ToolArguments::Truncated { .. },
                ..
            })
        ));
        let (events, _) = run(&["{\"action\": \"grep\", pattern: a}"], StopReason::EndTurn);
        assert!(matches!(
            events.last(),
            Some(ProviderEvent::ToolCallEnd {
                arguments: ToolArguments::Invalid { .. },
                ..
            })
        ));
    }

    #[test]
    fn text_held_when_the_answer_breaks_off_is_released() {
        for pieces in [
            &["Let me check.\n``"][..],
            &["Let me check.\n```json\n{\"act"],
            &["Let me check. {"],
            &["Let me check. {\"action\": \"gr"],
        ] {
            let mut streamer = TextCallStreamer::new(vec!["grep".into()]);
            let mut events: Vec<ProviderEvent> =
                pieces.iter().flat_map(|p| streamer.push(p)).collect();
            events.extend(streamer.release());
            assert_eq!(text_of(&events), pieces.concat(), "{pieces:?}");
        }
        // Once the call has started, its text went out as its arguments, not as text.
        let mut streamer = TextCallStreamer::new(vec!["grep".into()]);
        let mut events = streamer.push("Checking. {\"action\": \"grep\", \"pattern\": \"ma");
        events.extend(streamer.release());
        assert_eq!(text_of(&events), "Checking. ");
        assert_eq!(args_of(&events), "{\"action\": \"grep\", \"pattern\": \"ma");
    }

    #[test]
    fn json_without_action_is_released_as_text() {
        let (events, stop) = run(&["Example: {\"a\": 1}", " ok"], StopReason::EndTurn);
        assert_eq!(text_of(&events), "Example: {\"a\": 1} ok");
        assert_eq!(stop, StopReason::EndTurn);
    }

    #[test]
    fn brace_quote_that_is_not_json_is_released_at_once() {
        let mut streamer = TextCallStreamer::new(vec!["grep".into()]);
        let mut events = streamer.push("In Ruby: {\"a\" => 1}");
        events.extend(streamer.push(" is a hash."));
        assert_eq!(text_of(&events), "In Ruby: {\"a\" => 1} is a hash.");
        // A real call after the false start is still found.
        let started = streamer.push("\n{\"action\": \"grep\", \"pattern\": \"x\"}");
        assert_eq!(started[0], ProviderEvent::TextDelta("\n".into()));
        assert!(matches!(&started[1], ProviderEvent::ToolCallStart { name, .. } if name == "grep"));
        let (closing, stop) = streamer.finish(StopReason::EndTurn);
        assert_eq!(stop, StopReason::ToolUse);
        assert!(matches!(
            &closing[0],
            ProviderEvent::ToolCallEnd { arguments: ToolArguments::Parsed(v), .. } if *v == json!({"pattern": "x"})
        ));
    }

    #[test]
    fn a_candidate_with_illegal_escapes_stays_a_candidate() {
        let mut streamer = TextCallStreamer::new(vec!["grep".into()]);
        let events = streamer.push("{\"pattern\": \"a\\;");
        assert!(events.is_empty(), "{events:?}");
        let events = streamer.push("b\", \"action\": \"grep\"}");
        assert!(matches!(&events[0], ProviderEvent::ToolCallStart { .. }));
    }

    proptest::proptest! {
        #[test]
        fn any_chunking_of_an_answer_gives_the_same_result(
            cuts in proptest::collection::vec(0usize..200, 0..12)
        ) {
            let answer = "Let me check `main`.\n```json\n{\"action\": \"grep\", \"pattern\": \"fn main\\\\(\", \"glob\": \"*.rs\"}\n```\n";
            let mut cuts: Vec<usize> = cuts.into_iter().filter(|c| *c < answer.len()).collect();
            cuts.sort_unstable();
            let mut pieces = Vec::new();
            let mut at = 0;
            for cut in cuts.into_iter().chain(std::iter::once(answer.len())) {
                pieces.push(&answer[at..cut]);
                at = cut;
            }
            let (events, stop) = run(&pieces, StopReason::EndTurn);
            proptest::prop_assert_eq!(stop, StopReason::ToolUse);
            proptest::prop_assert_eq!(text_of(&events), "Let me check `main`.\n");
            proptest::prop_assert_eq!(
                args_of(&events),
                "{\"action\": \"grep\", \"pattern\": \"fn main\\\\(\", \"glob\": \"*.rs\"}"
            );
            let end = events.iter().find_map(|e| match e {
                ProviderEvent::ToolCallEnd { arguments, .. } => Some(arguments.clone()),
                _ => None,
            });
            proptest::prop_assert_eq!(
                end,
                Some(ToolArguments::Parsed(json!({"pattern": "fn main\\(", "glob": "*.rs"})))
            );
        }
    }

    #[test]
    fn repaired_escapes_reach_the_call() {
        let (events, _) = run(
            &[r#"{"action": "grep", "pattern": "a\;b"}"#],
            StopReason::EndTurn,
        );
        assert!(matches!(
            events.last(),
            Some(ProviderEvent::ToolCallEnd { arguments: ToolArguments::Parsed(v), .. }) if *v == json!({"pattern": "a\\;b"})
        ));
    }
}
