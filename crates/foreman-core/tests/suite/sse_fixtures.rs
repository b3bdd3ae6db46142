//! The SSE decoder and the partial-JSON parser on real recorded provider streams
//! (`tests/fixtures/`, copied byte for byte from the shared fixtures; see their README).

// A test crate: its helpers may unwrap like the tests themselves.

use std::path::Path;

use foreman_core::partial_json::PartialJsonParser;
use foreman_core::sse::{SseDecoder, SseEvent};
use serde_json::{Value, json};

/// The recorded stream, without its first line (a `# source:` provenance comment, not SSE).
fn stream(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let bytes = std::fs::read(path).unwrap();
    assert!(bytes.starts_with(b"# source:"));
    let first_line_end = bytes.iter().position(|&b| b == b'\n').unwrap();
    bytes[first_line_end + 1..].to_vec()
}

fn decode(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut decoder = SseDecoder::new();
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(decoder.push(chunk));
    }
    events.extend(decoder.finish());
    events
}

/// Decodes the stream whole, then split in two at every byte boundary, and checks every split
/// gives the same events.
fn decode_every_split(name: &str) -> Vec<SseEvent> {
    let bytes = stream(name);
    let whole = decode(&[&bytes]);
    for cut in 0..=bytes.len() {
        let (a, b) = bytes.split_at(cut);
        assert_eq!(decode(&[a, b]), whole, "{name} split at byte {cut}");
    }
    whole
}

fn data_json(event: &SseEvent) -> Value {
    serde_json::from_str(&event.data)
        .unwrap_or_else(|e| panic!("invalid JSON data {:?}: {e}", event.data))
}

/// Feeds argument fragments to a partial-JSON parser, checking each snapshot parses, and returns
/// the final value.
fn rebuild(fragments: &[String]) -> Value {
    let mut parser = PartialJsonParser::new();
    for fragment in fragments {
        parser.push(fragment).unwrap();
    }
    parser.finish().unwrap();
    parser.snapshot()
}

#[test]
fn anthropic_tool_use_stream() {
    let events = decode_every_split("anthropic-tool-use.sse");
    assert_eq!(events.len(), 15);
    let names: Vec<_> = events.iter().map(|e| e.event.as_deref()).collect();
    assert_eq!(names.first(), Some(&Some("message_start")));
    assert_eq!(names.last(), Some(&Some("message_stop")));
    let mut fragments = Vec::new();
    let mut tool_name = None;
    for event in &events {
        let data = data_json(event);
        // Every event names its own type in the data too.
        assert_eq!(data["type"].as_str(), event.event.as_deref());
        if data["content_block"]["type"] == "tool_use" {
            tool_name = data["content_block"]["name"].as_str().map(str::to_owned);
        }
        if data["delta"]["type"] == "input_json_delta" {
            fragments.push(data["delta"]["partial_json"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(tool_name.as_deref(), Some("get_weather"));
    assert_eq!(rebuild(&fragments), json!({"location": "Paris"}));
}

#[test]
fn openai_parallel_tool_calls_stream() {
    let events = decode_every_split("openai-parallel-tool-calls.sse");
    assert_eq!(events.len(), 26);
    let (last, chunks) = events.split_last().unwrap();
    assert!(last.is_done());
    let mut names = [None, None];
    let mut fragments = [Vec::new(), Vec::new()];
    let mut finish_reason = None;
    for event in chunks {
        assert!(event.event.is_none());
        let data = data_json(event);
        assert_eq!(data["object"], "chat.completion.chunk");
        let Some(choice) = data["choices"].get(0) else {
            continue;
        };
        if let Some(reason) = choice["finish_reason"].as_str() {
            finish_reason = Some(reason.to_owned());
        }
        for call in choice["delta"]["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let index = usize::try_from(call["index"].as_u64().unwrap()).unwrap();
            if let Some(name) = call["function"]["name"].as_str() {
                names[index] = Some(name.to_owned());
            }
            if let Some(arguments) = call["function"]["arguments"].as_str() {
                fragments[index].push(arguments.to_owned());
            }
        }
    }
    assert_eq!(finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(names[0].as_deref(), Some("GetWeatherArgs"));
    assert_eq!(names[1].as_deref(), Some("get_stock_price"));
    assert_eq!(
        rebuild(&fragments[0]),
        json!({"city": "Edinburgh", "country": "UK", "units": "c"})
    );
    assert_eq!(
        rebuild(&fragments[1]),
        json!({"ticker": "AAPL", "exchange": "NASDAQ"})
    );
}

/// The copies in `tests/fixtures/` are the shared recordings (`../shared/fixtures/` next to the
/// repository, where the workplace keeps them), byte for byte: a recording updated there must be
/// copied here too. A checkout without the shared directory has only the copies to test.
#[test]
fn the_copies_are_the_shared_recordings() {
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures");
    let Ok(entries) = std::fs::read_dir(&shared) else {
        eprintln!("no {} here: only the copies are tested", shared.display());
        return;
    };
    let mut compared = 0;
    for entry in entries {
        let entry = entry.unwrap();
        let copy = std::fs::read(ours.join(entry.file_name()));
        assert_eq!(
            copy.ok(),
            Some(std::fs::read(entry.path()).unwrap()),
            "tests/fixtures/{} differs from the shared recording",
            entry.file_name().to_string_lossy()
        );
        compared += 1;
    }
    assert!(compared >= 2, "the shared recordings were not found");
}
