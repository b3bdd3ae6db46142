//! Property tests of the SSE decoder: the chunking of a stream never changes its events.

use proptest::prelude::*;

use super::{SseDecoder, SseEvent};

fn decode_chunks(stream: &[u8], cuts: &[usize]) -> Vec<SseEvent> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
    cuts.push(0);
    cuts.push(stream.len());
    cuts.sort_unstable();
    let mut decoder = SseDecoder::new();
    let mut events = Vec::new();
    for window in cuts.windows(2) {
        events.extend(decoder.push(&stream[window[0]..window[1]]));
    }
    events.extend(decoder.finish());
    events
}

/// One line of a generated stream.
fn arb_line() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zé😀 :{}\"\\[\\]]{0,12}".prop_map(|v| format!("data: {v}")),
        "[a-z]{0,6}".prop_map(|v| format!("data:{v}")),
        "[a-z_]{0,8}".prop_map(|v| format!("event: {v}")),
        "[0-9a-z]{0,4}".prop_map(|v| format!("id: {v}")),
        "[0-9]{1,5}".prop_map(|v| format!("retry: {v}")),
        "[ a-z]{0,8}".prop_map(|v| format!(":{v}")),
        Just(String::new()),
        Just("data".to_owned()),
    ]
}

fn arb_stream() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<bool>(),
        prop::collection::vec(
            (
                arb_line(),
                prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
            ),
            0..24,
        ),
    )
        .prop_map(|(bom, lines)| {
            let mut stream = Vec::new();
            if bom {
                stream.extend_from_slice("\u{feff}".as_bytes());
            }
            for (line, ending) in lines {
                stream.extend_from_slice(line.as_bytes());
                stream.extend_from_slice(ending.as_bytes());
            }
            stream
        })
}

proptest! {
    #[test]
    fn every_chunking_yields_the_same_events(
        stream in arb_stream(),
        cuts in prop::collection::vec(any::<usize>(), 0..16),
    ) {
        let whole = decode_chunks(&stream, &[]);
        prop_assert_eq!(decode_chunks(&stream, &cuts), whole.clone());
        let bytewise: Vec<usize> = (0..stream.len()).collect();
        prop_assert_eq!(decode_chunks(&stream, &bytewise), whole);
    }

    #[test]
    fn arbitrary_bytes_chunk_the_same_too(
        stream in prop::collection::vec(
            prop_oneof![Just(b'\r'), Just(b'\n'), Just(b':'), Just(b' '), Just(0xEF), any::<u8>()],
            0..64,
        ),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        prop_assert_eq!(decode_chunks(&stream, &cuts), decode_chunks(&stream, &[]));
    }
}
