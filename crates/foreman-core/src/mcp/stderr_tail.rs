//! The last few KiB a server wrote to stderr, kept for error messages, and the lines of it that
//! say what went wrong ([`StderrTail::summary`]).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

use crate::sandbox::refusal::refused_lines;

/// How much stderr is kept.
pub const TAIL_BYTES: usize = 4096;

/// A shared, bounded buffer of the newest stderr bytes.
#[derive(Debug, Clone, Default)]
pub struct StderrTail {
    bytes: Arc<Mutex<VecDeque<u8>>>,
    /// The stream being collected has ended.
    ended: Arc<AtomicBool>,
}

/// The longest line [`StderrTail::summary`] keeps.
const SUMMARY_CHARS: usize = 300;

impl StderrTail {
    /// Appends `chunk`, dropping the oldest bytes beyond [`TAIL_BYTES`].
    pub fn push(&self, chunk: &[u8]) {
        if let Ok(mut bytes) = self.bytes.lock() {
            bytes.extend(chunk);
            let excess = bytes.len().saturating_sub(TAIL_BYTES);
            bytes.drain(..excess);
        }
    }

    /// Forgets everything (a new process starts).
    pub fn clear(&self) {
        self.ended.store(false, Ordering::SeqCst);
        if let Ok(mut bytes) = self.bytes.lock() {
            bytes.clear();
        }
    }

    /// Waits (at most `within`) until the stream being collected has ended, so that what a
    /// process wrote just before it exited is in the tail.
    pub async fn settled(&self, within: Duration) {
        let deadline = tokio::time::Instant::now() + within;
        while !self.ended.load(Ordering::SeqCst) && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// What went wrong, in a line for an error message: the lines that look like the sandbox
    /// refused something, else the last line written (empty when nothing was).
    pub fn summary(&self) -> String {
        let text = self.text();
        let refused = refused_lines(&text);
        let line = match refused.is_empty() {
            false => refused.join("; "),
            true => text
                .lines()
                .rev()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or_default()
                .to_owned(),
        };
        match line.char_indices().nth(SUMMARY_CHARS) {
            Some((cut, _)) => format!("{}…", &line[..cut]),
            None => line,
        }
    }

    /// The kept text (lossy UTF-8).
    pub fn text(&self) -> String {
        match self.bytes.lock() {
            Ok(bytes) => {
                let (a, b) = bytes.as_slices();
                String::from_utf8_lossy(&[a, b].concat()).into_owned()
            }
            Err(_) => String::new(),
        }
    }

    /// Copies `reader` into the tail until it ends (run as a task next to the process).
    pub async fn collect(self, mut reader: impl AsyncRead + Unpin) {
        let mut buf = [0u8; 1024];
        while let Ok(n) = reader.read(&mut buf).await {
            if n == 0 {
                break;
            }
            self.push(&buf[..n]);
        }
        self.ended.store(true, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keeps_only_the_newest_bytes() {
        let tail = StderrTail::default();
        let data: Vec<u8> = (0..10_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        tail.clone().collect(&data[..]).await;
        let text = tail.text();
        assert_eq!(text.len(), TAIL_BYTES);
        assert_eq!(text.as_bytes(), &data[data.len() - TAIL_BYTES..]);
        tail.clear();
        assert_eq!(tail.text(), "");
    }

    #[tokio::test]
    async fn the_summary_is_the_refusal_else_the_last_line() {
        let tail = StderrTail::default();
        assert_eq!(tail.summary(), "");
        let node = "Error: EACCES: permission denied, mkdir '/home/u/.cache/x'\n    at Object.mkdirSync (node:fs:1372:26)\n    at main (index.js:3:4)\n\n";
        tail.clone().collect(node.as_bytes()).await;
        // The stream ended: waiting returns at once.
        tokio::time::timeout(
            Duration::from_millis(500),
            tail.settled(Duration::from_secs(30)),
        )
        .await
        .unwrap();
        assert_eq!(
            tail.summary(),
            "Error: EACCES: permission denied, mkdir '/home/u/.cache/x'"
        );
        tail.clear();
        tail.push(b"starting\nconfig file missing\n");
        assert_eq!(tail.summary(), "config file missing");
        tail.clear();
        tail.push("é".repeat(400).as_bytes());
        assert_eq!(tail.summary().chars().count(), SUMMARY_CHARS + 1);
    }
}
