//! Fuzzes the SSE decoder: it never panics, the chunking of a stream never changes its events,
//! and no event carries a line ending in a field.

#![no_main]

use foreman_stream::sse::{SseDecoder, SseEvent};
use libfuzzer_sys::fuzz_target;

fn decode(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut decoder = SseDecoder::new();
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(decoder.push(chunk));
    }
    events.extend(decoder.finish());
    events
}

fuzz_target!(|input: &[u8]| {
    let Some((&control, stream)) = input.split_first() else {
        return;
    };
    let whole = decode(&[stream]);
    for event in &whole {
        assert!(!event.data.contains('\r'));
        for field in [&event.event, &event.id].into_iter().flatten() {
            assert!(!field.contains(['\r', '\n']));
        }
    }
    let size = usize::from(control % 16) + 1;
    let chunks: Vec<&[u8]> = stream.chunks(size).collect();
    assert_eq!(decode(&chunks), whole, "chunks of {size} bytes");
    let cut = usize::from(control) * stream.len() / 255;
    let (a, b) = stream.split_at(cut);
    assert_eq!(decode(&[a, b]), whole, "split at {cut}");
});
