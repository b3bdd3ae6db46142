//! Scrubbing output that arrives in pieces, where a key may be split between two of them.

use super::registry::{known, replace_all};

/// Scrubs a stream of chunks: holds back the end of a chunk while it could be the start of a
/// known secret, until the next chunk says whether it is.
#[derive(Debug, Default)]
pub struct StreamScrubber {
    held: Vec<u8>,
}

impl StreamScrubber {
    pub fn new() -> Self {
        Self::default()
    }

    /// What of `chunk` (after what was held) can be passed on now, scrubbed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<u8> {
        let secrets = known();
        self.held.extend_from_slice(chunk);
        let scrubbed = replace_all(&self.held, &secrets).into_owned();
        let keep = partial_suffix(&scrubbed, &secrets);
        let split = scrubbed.len() - keep;
        self.held = scrubbed[split..].to_vec();
        let mut out = scrubbed;
        out.truncate(split);
        out
    }

    /// [`push`](Self::push) for text; what is held back always ends at a character boundary.
    pub fn push_str(&mut self, chunk: &str) -> String {
        let out = self.push(chunk.as_bytes());
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The rest, at the end of the stream (no secret can be completed any more).
    pub fn finish(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.held)
    }

    /// [`finish`](Self::finish) for text.
    pub fn finish_str(&mut self) -> String {
        let out = self.finish();
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// The length of the longest end of `bytes` that is a proper beginning of a secret, cut where
/// the secret has a character boundary.
fn partial_suffix(bytes: &[u8], secrets: &[String]) -> usize {
    secrets
        .iter()
        .filter_map(|secret| {
            (1..secret.len().min(bytes.len() + 1))
                .rev()
                .find(|&k| secret.is_char_boundary(k) && bytes.ends_with(&secret.as_bytes()[..k]))
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::super::registry::remember;
    use super::*;

    #[test]
    fn a_secret_split_across_chunks_is_still_scrubbed() {
        remember("sk-stream-test-98765");
        for cut in 1.."sk-stream-test-98765".len() {
            let text = "out: sk-stream-test-98765 done\n";
            let at = 5 + cut;
            let mut scrubber = StreamScrubber::new();
            let mut out = scrubber.push_str(&text[..at]);
            out.push_str(&scrubber.push_str(&text[at..]));
            out.push_str(&scrubber.finish_str());
            assert_eq!(out, "out: [REDACTED] done\n", "cut at {cut}");
        }
    }

    #[test]
    fn ordinary_output_passes_at_once() {
        let mut scrubber = StreamScrubber::new();
        assert_eq!(scrubber.push_str("hello world\n"), "hello world\n");
        assert_eq!(scrubber.push_str("ünïcode ✓"), "ünïcode ✓");
        assert!(scrubber.finish().is_empty());
    }
}
