//! [`ArgsStream`]: the arguments of one streaming tool call, turned into coalesced patches.
//!
//! Fragments go through the partial-JSON parser; its patches are merged (consecutive appends to
//! the same string become one) and released in batches, so the bytes sent per call stay linear
//! in the arguments' size whatever the chunking: a batch is released when it holds
//! [`FLUSH_BYTES`], or after [`FLUSH_INTERVAL`] when it holds at least [`MIN_TIMED_FLUSH_BYTES`],
//! or after [`MAX_FLUSH_DELAY`] in any case (a bounded rate of small updates for slow streams).
//!
//! It also keeps the *heads* of the arguments: their top-level values, strings cut at
//! [`HEAD_CHARS`] and containers left empty, which is all a card's title needs, without copying a
//! long content on every fragment.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::partial_json::{PartialJsonParser, Patch, PathSegment};

/// Bytes of pending text that release a batch at once.
pub const FLUSH_BYTES: usize = 4096;
/// A batch of at least [`MIN_TIMED_FLUSH_BYTES`] is released after this long.
pub const FLUSH_INTERVAL: Duration = Duration::from_millis(100);
/// See [`FLUSH_INTERVAL`].
pub const MIN_TIMED_FLUSH_BYTES: usize = 256;
/// Any pending batch is released after this long.
pub const MAX_FLUSH_DELAY: Duration = Duration::from_secs(1);

/// How much of a top-level string the heads keep.
pub const HEAD_CHARS: usize = 200;

/// The streaming arguments of one call.
#[derive(Debug)]
pub struct ArgsStream {
    parser: PartialJsonParser,
    heads: Value,
    heads_changed: bool,
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
            heads: Value::Object(serde_json::Map::new()),
            heads_changed: false,
            pending: Vec::new(),
            scratch: Vec::new(),
            pending_bytes: 0,
            last_flush: Instant::now(),
            broken: false,
        }
    }

    fn add(&mut self, patches: impl IntoIterator<Item = Patch>) {
        for patch in patches {
            self.heads_changed |= apply_head(&mut self.heads, &patch);
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

    /// The top-level values so far (strings cut, containers empty), and whether they changed
    /// since the last call.
    pub fn heads(&mut self) -> (&Value, bool) {
        let changed = std::mem::take(&mut self.heads_changed);
        (&self.heads, changed)
    }
}

/// Applies the part of `patch` that concerns a top-level value; true when `heads` changed.
fn apply_head(heads: &mut Value, patch: &Patch) -> bool {
    let Value::Object(map) = heads else {
        return false;
    };
    let [PathSegment::Key(key)] = patch.path() else {
        return false;
    };
    match patch {
        Patch::Set { value, .. } => {
            let head = match value {
                Value::String(s) => Value::String(s.chars().take(HEAD_CHARS).collect()),
                Value::Array(_) => Value::Array(Vec::new()),
                Value::Object(_) => Value::Object(serde_json::Map::new()),
                other => other.clone(),
            };
            map.insert(key.to_string(), head);
            true
        }
        Patch::Append { text, .. } => match map.get_mut(key.as_str()) {
            Some(Value::String(s)) if s.chars().count() < HEAD_CHARS => {
                let room = HEAD_CHARS - s.chars().count();
                s.extend(text.chars().take(room));
                true
            }
            _ => false,
        },
        Patch::Push { .. } | Patch::Close { .. } => false,
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
    fn heads_keep_the_top_level_values_short() {
        let mut stream = ArgsStream::new();
        let now = Instant::now();
        let long = "x".repeat(1000);
        let json = serde_json::json!({"path": "src/a.rs", "content": long, "n": 3}).to_string();
        for ch in json.chars() {
            stream.push(ch.encode_utf8(&mut [0; 4]), now);
        }
        stream.finish(now);
        let (heads, changed) = stream.heads();
        assert!(changed);
        assert_eq!(heads["path"], "src/a.rs");
        assert_eq!(heads["content"].as_str().unwrap().len(), HEAD_CHARS);
        assert_eq!(heads["n"], 3);
        assert!(!stream.heads().1, "nothing new since");
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
