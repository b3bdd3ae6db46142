//! Fuzzes the partial-JSON parser against serde_json: it never panics; when serde_json accepts
//! the input, `finish` succeeds with serde_json's value, and when serde_json rejects it (except
//! for serde_json's own nesting limit) the parser rejects it too; feeding the input in chunks
//! gives exactly the one-shot result, every intermediate snapshot equals `parse_partial` of the
//! prefix, and the patches rebuild the snapshot.

#![no_main]

use foreman_stream::partial_json::{PartialJsonError, PartialJsonParser, apply_patch, parse_partial};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Feeds the chunks, then finishes; checks the per-push invariants on the way.
fn feed(text: &str, chunks: &[&str]) -> Result<Value, PartialJsonError> {
    let mut parser = PartialJsonParser::new();
    let mut mirror = Value::Null;
    let mut received = 0;
    for chunk in chunks {
        for patch in parser.push(chunk)? {
            apply_patch(&mut mirror, &patch);
        }
        received += chunk.len();
        let snapshot = parser.snapshot();
        assert_eq!(mirror, snapshot, "patches vs snapshot");
        assert_eq!(parse_partial(&text[..received]), Ok(snapshot), "prefix");
    }
    for patch in parser.finish()? {
        apply_patch(&mut mirror, &patch);
    }
    let snapshot = parser.snapshot();
    assert_eq!(mirror, snapshot, "patches vs snapshot after finish");
    Ok(snapshot)
}

/// `text` cut into chunks of about `size` bytes, on char boundaries.
fn chunks(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}

fuzz_target!(|input: &[u8]| {
    let Some((&control, rest)) = input.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let one_shot = feed(text, &[text]);
    let chunked = feed(text, &chunks(text, usize::from(control % 16) + 1));
    assert_eq!(chunked, one_shot, "chunked vs one-shot");
    match serde_json::from_str::<Value>(text) {
        Ok(expected) => assert_eq!(one_shot, Ok(expected), "serde_json accepts {text:?}"),
        Err(error) if error.to_string().contains("recursion limit") => {}
        Err(error) => assert!(
            one_shot.is_err(),
            "serde_json rejects {text:?} ({error}) but the parser gave {one_shot:?}"
        ),
    }
});
