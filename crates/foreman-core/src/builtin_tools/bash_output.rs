//! Collecting a command's output for the model: the first and last lines are kept in memory
//! (head + tail, each at most 128 lines and 15 KiB), everything is streamed to a log file, and
//! the log is kept only when something had to be left out. The log is scrubbed of known keys as
//! it is written, like everything else a tool produces.

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;

use crate::secrets::StreamScrubber;

/// Lines kept from the start of the output.
pub const HEAD_LINES: usize = 128;
/// Lines kept from the end of the output.
pub const TAIL_LINES: usize = 128;
/// Byte budget of the head and of the tail (together at most 30 KiB).
pub const PART_BYTES: usize = 15 * 1024;

/// Accumulates output as it streams in.
pub struct OutputCollector {
    head: Vec<u8>,
    head_lines: usize,
    head_closed: bool,
    tail: VecDeque<Vec<u8>>,
    tail_bytes: usize,
    pending: Vec<u8>,
    dropped_lines: usize,
    dropped_bytes: usize,
    total_lines: usize,
    total_bytes: usize,
    log: Option<(PathBuf, File)>,
    log_scrubber: StreamScrubber,
}

/// What remains when the command is done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectedOutput {
    /// The text for the model (head, an omission note if needed, tail).
    pub text: String,
    /// Whether anything was left out.
    pub truncated: bool,
    /// Lines in the whole output.
    pub total_lines: usize,
    /// Bytes in the whole output.
    pub total_bytes: usize,
    /// Where the full output was saved, when truncated.
    pub full_output_path: Option<PathBuf>,
}

impl OutputCollector {
    /// A collector that also writes everything to `log_path` (if it can be created).
    pub fn new(log_path: Option<PathBuf>) -> Self {
        let log = log_path.and_then(|p| File::create(&p).ok().map(|f| (p, f)));
        Self {
            head: Vec::new(),
            head_lines: 0,
            head_closed: false,
            tail: VecDeque::new(),
            tail_bytes: 0,
            pending: Vec::new(),
            dropped_lines: 0,
            dropped_bytes: 0,
            total_lines: 0,
            total_bytes: 0,
            log,
            log_scrubber: StreamScrubber::new(),
        }
    }

    /// Adds a chunk of output.
    pub fn push(&mut self, chunk: &[u8]) {
        self.total_bytes += chunk.len();
        if let Some((_, file)) = &mut self.log
            && file.write_all(&self.log_scrubber.push(chunk)).is_err()
        {
            self.log = None;
        }
        self.pending.extend_from_slice(chunk);
        while let Some(pos) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=pos).collect();
            self.push_line(line);
        }
        // A very long line without a newline is flushed in pieces so memory stays bounded.
        if self.pending.len() > PART_BYTES {
            let line = std::mem::take(&mut self.pending);
            self.push_line(line);
        }
    }

    fn push_line(&mut self, line: Vec<u8>) {
        self.total_lines += 1;
        if !self.head_closed
            && self.head_lines < HEAD_LINES
            && self.head.len() + line.len() <= PART_BYTES
        {
            self.head.extend_from_slice(&line);
            self.head_lines += 1;
            return;
        }
        self.head_closed = true;
        self.tail_bytes += line.len();
        self.tail.push_back(line);
        while self.tail.len() > TAIL_LINES || (self.tail_bytes > PART_BYTES && self.tail.len() > 1)
        {
            if let Some(old) = self.tail.pop_front() {
                self.tail_bytes -= old.len();
                self.dropped_lines += 1;
                self.dropped_bytes += old.len();
            }
        }
    }

    /// Finishes collection. The log file is removed unless output was left out.
    pub fn finish(mut self) -> CollectedOutput {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.push_line(line);
        }
        let mut tail: Vec<u8> = self.tail.iter().flatten().copied().collect();
        if tail.len() > PART_BYTES {
            let cut = tail.len() - PART_BYTES;
            self.dropped_bytes += cut;
            tail.drain(..cut);
        }
        let truncated = self.dropped_bytes > 0;
        let full_output_path = match self.log.take() {
            Some((path, mut file)) => {
                let _ = file.write_all(&self.log_scrubber.finish());
                drop(file);
                if truncated {
                    Some(path)
                } else {
                    let _ = std::fs::remove_file(&path);
                    None
                }
            }
            None => None,
        };
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if truncated {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            let saved = match &full_output_path {
                Some(p) => format!("; the full output is saved in {}", p.display()),
                None => String::new(),
            };
            text.push_str(&format!(
                "[… {} lines ({} bytes) omitted{saved} …]\n",
                self.dropped_lines, self.dropped_bytes
            ));
        }
        text.push_str(&String::from_utf8_lossy(&tail));
        CollectedOutput {
            text,
            truncated,
            total_lines: self.total_lines,
            total_bytes: self.total_bytes,
            full_output_path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_whole_and_log_removed() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("out.log");
        let mut c = OutputCollector::new(Some(log.clone()));
        c.push(b"hello\nwor");
        c.push(b"ld\n");
        let out = c.finish();
        assert_eq!(out.text, "hello\nworld\n");
        assert!(!out.truncated);
        assert_eq!(out.total_lines, 2);
        assert!(!log.exists());
    }

    #[test]
    fn long_output_keeps_head_and_tail_and_saves_log() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("out.log");
        let mut c = OutputCollector::new(Some(log.clone()));
        let all: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
        for chunk in all.as_bytes().chunks(777) {
            c.push(chunk);
        }
        let out = c.finish();
        assert!(out.truncated);
        assert_eq!(out.total_lines, 1000);
        assert!(out.text.starts_with("line 1\n"));
        assert!(out.text.contains("line 128\n[… 744 lines"));
        assert!(out.text.ends_with("line 1000\n"));
        assert!(out.text.contains("line 873\n"));
        assert!(!out.text.contains("line 872\n"));
        assert_eq!(out.full_output_path.as_deref(), Some(log.as_path()));
        assert_eq!(std::fs::read_to_string(&log).unwrap(), all);
    }

    #[test]
    fn byte_budget_is_respected() {
        let mut c = OutputCollector::new(None);
        let line = format!("{}\n", "y".repeat(1000));
        for _ in 0..200 {
            c.push(line.as_bytes());
        }
        c.push(&vec![b'z'; 100_000]);
        let out = c.finish();
        assert!(out.truncated);
        assert!(out.text.len() <= 2 * PART_BYTES + 200, "{}", out.text.len());
        assert!(out.text.ends_with('z'));
    }
}
