//! The last few KiB a server wrote to stderr, kept for error messages.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt};

/// How much stderr is kept.
pub const TAIL_BYTES: usize = 4096;

/// A shared, bounded buffer of the newest stderr bytes.
#[derive(Debug, Clone, Default)]
pub struct StderrTail {
    bytes: Arc<Mutex<VecDeque<u8>>>,
}

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
        if let Ok(mut bytes) = self.bytes.lock() {
            bytes.clear();
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
}
