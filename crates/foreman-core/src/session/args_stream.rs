//! [`ArgsStream`]: the arguments of one streaming tool call, turned into coalesced patches.
//!
//! Fragments go through the partial-JSON parser; its patches are merged (consecutive appends to
//! the same string become one) and released in batches, so the bytes sent per call stay linear
//! in the arguments' size whatever the chunking: a batch is released when it holds
//! [`FLUSH_BYTES`], or after [`FLUSH_INTERVAL`] when it holds at least [`MIN_TIMED_FLUSH_BYTES`],
//! or after [`MAX_FLUSH_DELAY`] in any case (a bounded rate of small updates for slow streams).

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::partial_json::{PartialJsonParser, Patch};

/// Bytes of pending text that release a batch at once.
pub const FLUSH_BYTES: usize = 4096;
/// A batch of at least [`MIN_TIMED_FLUSH_BYTES`] is released after this long.
pub const FLUSH_INTERVAL: Duration = Duration::from_millis(100);
/// See [`FLUSH_INTERVAL`].
pub const MIN_TIMED_FLUSH_BYTES: usize = 256;
/// Any pending batch is released after this long.
pub const MAX_FLUSH_DELAY: Duration = Duration::from_secs(1);

/// The streaming arguments of one call.
#[derive(Debug)]
pub struct ArgsStream {
    parser: PartialJsonParser,
    pending: Vec<Patch>,
    /// The patches of the fragment being fed (kept to avoid an allocation per fragment).
    scratch: Vec<Patch>,
    pending_bytes: usize,
    last_flush: Instant,
    broken: bool,
}

impl Default for ArgsStream {
    fn default() -> Self {
        Self::new()
    }
}

fn patch_bytes(patch: &Patch) -> usize {
    match patch {
        Patch::Append { text, .. } => text.len(),
        Patch::Set { value, .. } | Patch::Push { value, .. } => match value {
            Value::String(s) => s.len() + 8,
            _ => 8,
        },
        Patch::Close { .. } => 4,
    }
}

impl ArgsStream {
    pub fn new() -> Self {
        Self {
            parser: PartialJsonParser::new(),
            pending: Vec::new(),
            scratch: Vec::new(),
            pending_bytes: 0,
            last_flush: Instant::now(),
            broken: false,
        }
    }

    fn add(&mut self, patches: impl IntoIterator<Item = Patch>) {
        for patch in patches {
            self.pending_bytes += patch_bytes(&patch);
            if let (Some(Patch::Append { path, text }), Patch::Append { path: p2, text: t2 }) =
                (self.pending.last_mut(), &patch)
                && path == p2
            {
                text.push_str(t2);
                continue;
            }
            self.pending.push(patch);
        }
    }

    /// Feeds a fragment; returns a batch of patches when one is due.
    pub fn push(&mut self, fragment: &str, now: Instant) -> Option<Vec<Patch>> {
        if self.broken {
            return None;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let fed = self.parser.push_into(fragment, &mut scratch);
        self.add(scratch.drain(..));
        self.scratch = scratch;
        match fed {
            Ok(()) => {}
            Err(_) => {
                // Not JSON: the card shows nothing more; the final arguments decide the outcome.
                self.broken = true;
                return None;
            }
        }
        let waited = now.saturating_duration_since(self.last_flush);
        let due = self.pending_bytes >= FLUSH_BYTES
            || (waited >= FLUSH_INTERVAL && self.pending_bytes >= MIN_TIMED_FLUSH_BYTES)
            || (waited >= MAX_FLUSH_DELAY && !self.pending.is_empty());
        due.then(|| self.take(now))
    }

    /// The rest of the patches, at the end of the call.
    pub fn finish(&mut self, now: Instant) -> Vec<Patch> {
        if !self.broken
            && let Ok(patches) = self.parser.finish()
        {
            self.add(patches);
        }
        self.take(now)
    }

    fn take(&mut self, now: Instant) -> Vec<Patch> {
        self.pending_bytes = 0;
        self.last_flush = now;
        std::mem::take(&mut self.pending)
    }

    /// Whether the patches built exactly `value` (after [`finish`](Self::finish)): false when
    /// the stream was not complete JSON or parsed to something else.
    pub fn built(&self, value: &Value) -> bool {
        !self.broken && self.parser.complete_value() == Some(value)
    }

    /// The arguments parsed so far.
    pub fn snapshot(&self) -> Value {
        self.parser.snapshot()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partial_json::apply_patch;

    #[test]
    fn byte_at_a_time_streams_stay_linear_and_exact() {
        let content = "line of text\n".repeat(20_000);
        let json = serde_json::json!({"path": "big.txt", "content": content}).to_string();
        let mut stream = ArgsStream::new();
        let now = Instant::now();
        let mut batches = Vec::new();
        for ch in json.chars() {
            if let Some(b) = stream.push(ch.encode_utf8(&mut [0; 4]), now) {
                batches.push(b);
            }
        }
        batches.push(stream.finish(now));
        let mut value = Value::Null;
        let mut bytes = 0;
        for batch in &batches {
            bytes += serde_json::to_string(batch).unwrap().len();
            for p in batch {
                apply_patch(&mut value, p);
            }
        }
        assert_eq!(value.to_string(), json);
        assert!(bytes * 10 <= json.len() * 12, "{bytes} for {}", json.len());
    }

    #[test]
    fn small_arguments_wait_for_the_end_or_the_clock() {
        let mut stream = ArgsStream::new();
        let t0 = Instant::now();
        assert!(stream.push("{\"path\": \"a", t0).is_none());
        let later = t0 + MAX_FLUSH_DELAY;
        let batch = stream.push("b", later).unwrap();
        assert!(!batch.is_empty());
        let rest = stream.finish(later);
        assert!(rest.iter().any(|p| matches!(p, Patch::Close { .. })) || rest.is_empty());
    }
}
