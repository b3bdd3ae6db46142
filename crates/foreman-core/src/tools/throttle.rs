//! Throttling partial invocations so their total cost stays linear in the argument size.
//!
//! A [`PartialStream`] accumulates the streamed argument text (amortised O(1) per byte) and says
//! when a partial invocation is worth it: on the first content, when a top-level value starts (a
//! new key is visible), when the text grew by [`ThrottleConfig::growth_factor`] since the
//! last invocation, or when enough time passed — the interval grows with the size, so time-based
//! invocations cost a bounded number of bytes per second. Each invocation parses the text (O(n));
//! with geometric growth the parses of all partial invocations add up to at most
//! `factor / (factor - 1)` times the final size.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::partial_json::JsonScanner;

/// When partial invocations happen.
#[derive(Debug, Clone, PartialEq)]
pub struct ThrottleConfig {
    /// Invoke when the text is this many times longer than at the last invocation. The default
    /// (8) keeps the parses of all partial invocations under 8/7 of the final size; the UI stays
    /// fresh through the key and time triggers.
    pub growth_factor: f64,
    /// Invoke after this long without one…
    pub interval: Duration,
    /// …multiplied by the number of these chunks the text holds.
    pub interval_bytes: usize,
}

impl Default for ThrottleConfig {
    fn default() -> Self {
        Self {
            growth_factor: 8.0,
            interval: Duration::from_millis(250),
            interval_bytes: 64 * 1024,
        }
    }
}

/// The streamed arguments of one call.
#[derive(Debug, Clone, Default)]
pub struct PartialStream {
    text: String,
    scanner: JsonScanner,
    last_len: usize,
    last_events: u64,
    last_at: Option<Instant>,
    pushes_since_clock: u32,
    invocations: u64,
}

/// How many pushes may pass between two reads of the clock for the time-based trigger.
pub const CLOCK_EVERY_PUSHES: u32 = 32;

impl PartialStream {
    pub fn new() -> Self {
        Self::default()
    }

    /// The text received so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Partial invocations decided so far.
    pub fn invocations(&self) -> u64 {
        self.invocations
    }

    /// Appends `delta`; returns whether a partial invocation should run now.
    /// Appends `delta`; returns whether a partial invocation should run now. The clock is only
    /// read every [`CLOCK_EVERY_PUSHES`] pushes (or when invoking), keeping tiny pieces cheap.
    pub fn push(
        &mut self,
        delta: &str,
        config: &ThrottleConfig,
        clock: impl FnOnce() -> Instant,
    ) -> bool {
        self.text.push_str(delta);
        self.scanner.feed(delta);
        let len = self.text.len();
        if len == self.last_len {
            return false;
        }
        self.pushes_since_clock += 1;
        let events = self.scanner.top_level_values();
        let grew = len as f64 >= self.last_len as f64 * config.growth_factor;
        if self.invocations == 0 || events != self.last_events || grew {
            return self.invoked(len, events, clock());
        }
        if self.pushes_since_clock < CLOCK_EVERY_PUSHES {
            return false;
        }
        self.pushes_since_clock = 0;
        let Some(at) = self.last_at else {
            return false;
        };
        let now = clock();
        let chunks = u32::try_from(len / config.interval_bytes.max(1))
            .unwrap_or(u32::MAX)
            .max(1);
        if now.saturating_duration_since(at) >= config.interval.saturating_mul(chunks) {
            return self.invoked(len, events, now);
        }
        false
    }

    fn invoked(&mut self, len: usize, events: u64, now: Instant) -> bool {
        self.last_len = len;
        self.last_events = events;
        self.last_at = Some(now);
        self.pushes_since_clock = 0;
        self.invocations += 1;
        true
    }

    /// The params promised so far, as an object (`{}` before anything usable arrived). In the
    /// common case the closing characters are appended to the text in place for the parse and
    /// removed again, so no copy of the text is made.
    pub fn current(&mut self) -> Value {
        if let Some(suffix) = self.scanner.closing_suffix() {
            let original = self.text.len();
            self.text.push_str(&suffix);
            let parsed = serde_json::from_str::<Value>(&self.text);
            self.text.truncate(original);
            if let Ok(value @ Value::Object(_)) = parsed {
                return value;
            }
        }
        match self.scanner.complete(&self.text) {
            Some(value @ Value::Object(_)) => value,
            _ => Value::Object(serde_json::Map::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stream_in(text: &str, piece: usize) -> (PartialStream, Vec<usize>) {
        let config = ThrottleConfig {
            interval: Duration::from_secs(3600),
            ..ThrottleConfig::default()
        };
        let mut stream = PartialStream::new();
        let now = Instant::now();
        let mut invoked_at = Vec::new();
        let bytes = text.as_bytes();
        for chunk in bytes.chunks(piece) {
            let Ok(chunk) = std::str::from_utf8(chunk) else {
                panic!("ascii test text");
            };
            if stream.push(chunk, &config, || now) {
                invoked_at.push(stream.text().len());
            }
        }
        (stream, invoked_at)
    }

    #[test]
    fn a_megabyte_in_16_byte_pieces_invokes_logarithmically_often() {
        let content = "line of text\n".repeat(80_000);
        // Models emit params in schema order: the path first, then the long content.
        let args = format!(
            r#"{{"path": "big.txt", "content": {}}}"#,
            serde_json::to_string(&content).unwrap()
        );
        let (mut stream, invoked_at) = stream_in(&args, 16);
        assert!(invoked_at.len() < 30, "{} invocations", invoked_at.len());
        let parsed: usize = invoked_at.iter().sum();
        assert!(
            parsed <= 3 * args.len(),
            "parsed {parsed} bytes for {}",
            args.len()
        );
        assert_eq!(stream.current()["content"], json!(content));
    }

    #[test]
    fn new_keys_always_invoke() {
        let args = r#"{"a": "1", "b": "2", "c": "3"}"#;
        let (_, invoked_at) = stream_in(args, 1);
        // Lengths right after each value's opening quote arrived.
        for len in [7, 17, 27] {
            assert!(invoked_at.contains(&len), "{invoked_at:?}");
        }
    }

    fn pushes_at(stream: &mut PartialStream, config: &ThrottleConfig, at: Instant) -> Vec<bool> {
        (0..CLOCK_EVERY_PUSHES)
            .map(|_| stream.push("y", config, || at))
            .collect()
    }

    #[test]
    fn time_based_invocations_read_the_clock_every_few_pushes() {
        let config = ThrottleConfig {
            growth_factor: 1000.0,
            interval: Duration::from_millis(100),
            interval_bytes: 1_000_000,
        };
        let mut stream = PartialStream::new();
        let start = Instant::now();
        assert!(stream.push(r#"{"a": "x"#, &config, || start));
        let early = pushes_at(&mut stream, &config, start + Duration::from_millis(50));
        assert!(early.iter().all(|invoked| !invoked));
        let late = pushes_at(&mut stream, &config, start + Duration::from_millis(150));
        assert_eq!(late.iter().filter(|invoked| **invoked).count(), 1);
        assert_eq!(late.last(), Some(&true), "on the push that reads the clock");
    }

    #[test]
    fn time_based_invocations_wait_longer_for_larger_texts() {
        let config = ThrottleConfig {
            growth_factor: 1000.0,
            interval: Duration::from_millis(100),
            interval_bytes: 40,
        };
        let mut stream = PartialStream::new();
        let start = Instant::now();
        // 90 bytes and more hold at least 2 chunks of 40: the interval is 200 ms or more, while
        // the small text stays under 40 bytes and waits 100 ms.
        let big = format!(r#"{{"a": "{}"#, "x".repeat(83));
        assert!(stream.push(&big, &config, || start));
        let mut small = PartialStream::new();
        assert!(small.push(r#"{"a": ""#, &config, || start));
        let at = start + Duration::from_millis(150);
        assert!(!pushes_at(&mut stream, &config, at).contains(&true));
        assert!(pushes_at(&mut small, &config, at).contains(&true));
    }
}
