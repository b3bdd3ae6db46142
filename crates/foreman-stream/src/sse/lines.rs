//! Splitting an SSE byte stream into lines.
//!
//! Lines end with LF, CRLF or a lone CR. Bytes arrive in chunks cut anywhere: inside a UTF-8
//! character (lines are kept as bytes and decoded whole), between a CR and its LF (the CR ends the
//! line at once and a directly following LF is then skipped), or inside the UTF-8 byte order mark,
//! which is dropped only at the very start of the stream.

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Turns chunks of bytes into complete lines.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineSplitter {
    /// The current line's bytes, when it spans chunks.
    partial: Vec<u8>,
    /// The last byte seen was a CR, so an LF right after it is part of the same line ending.
    after_cr: bool,
    /// Past the start of the stream (the BOM check is done).
    started: bool,
    /// Bytes of a possible BOM seen at the start of the stream.
    bom_matched: usize,
}

impl LineSplitter {
    /// Feeds a chunk, calling `on_line` with each line it completes (without its line ending).
    pub(crate) fn push(&mut self, mut bytes: &[u8], on_line: &mut impl FnMut(&[u8])) {
        if !self.started {
            while let Some((&byte, rest)) = bytes.split_first() {
                if BOM.get(self.bom_matched) != Some(&byte) {
                    break;
                }
                self.bom_matched += 1;
                bytes = rest;
                if self.bom_matched == BOM.len() {
                    break;
                }
            }
            if self.bom_matched == BOM.len() {
                self.started = true;
            } else if bytes.is_empty() {
                return;
            } else {
                // Not a BOM after all: what looked like one is data.
                self.started = true;
                let matched = BOM.get(..self.bom_matched).unwrap_or_default();
                self.split(matched, on_line);
            }
        }
        self.split(bytes, on_line);
    }

    /// Ends the stream: an unterminated last line is completed.
    pub(crate) fn finish(&mut self, on_line: &mut impl FnMut(&[u8])) {
        if !self.started {
            let matched = BOM.get(..self.bom_matched).unwrap_or_default();
            self.split(matched, on_line);
        }
        if !self.partial.is_empty() {
            on_line(&self.partial);
        }
        *self = Self::default();
    }

    fn split(&mut self, mut bytes: &[u8], on_line: &mut impl FnMut(&[u8])) {
        if self.after_cr && !bytes.is_empty() {
            self.after_cr = false;
            if let Some(rest) = bytes.strip_prefix(b"\n") {
                bytes = rest;
            }
        }
        while let Some(end) = memchr::memchr2(b'\r', b'\n', bytes) {
            let (line, rest) = bytes.split_at(end);
            if self.partial.is_empty() {
                on_line(line);
            } else {
                self.partial.extend_from_slice(line);
                on_line(&self.partial);
                self.partial.clear();
            }
            bytes = rest.get(1..).unwrap_or_default();
            if rest.first() == Some(&b'\r') {
                match bytes.first() {
                    Some(b'\n') => bytes = bytes.get(1..).unwrap_or_default(),
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.partial.extend_from_slice(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut splitter = LineSplitter::default();
        let mut out = Vec::new();
        let mut collect = |line: &[u8]| out.push(line.to_vec());
        for chunk in chunks {
            splitter.push(chunk, &mut collect);
        }
        splitter.finish(&mut collect);
        out
    }

    fn strings(lines: Vec<Vec<u8>>) -> Vec<String> {
        lines
            .into_iter()
            .map(|l| String::from_utf8(l).unwrap())
            .collect()
    }

    #[test]
    fn all_three_line_endings_split() {
        assert_eq!(
            strings(lines(&[b"a\nb\r\nc\rd\n\ne"])),
            ["a", "b", "c", "d", "", "e"]
        );
    }

    #[test]
    fn a_crlf_split_between_chunks_is_one_line_ending() {
        assert_eq!(strings(lines(&[b"a\r", b"\nb\n"])), ["a", "b"]);
        assert_eq!(strings(lines(&[b"a\r", b"", b"\nb\n"])), ["a", "b"]);
        assert_eq!(strings(lines(&[b"a\r", b"\r", b"\n"])), ["a", ""]);
    }

    #[test]
    fn lines_spanning_chunks_are_joined_even_inside_a_character() {
        let text = "é😀\n".as_bytes();
        assert_eq!(
            strings(lines(&[&text[..1], &text[1..3], &text[3..]])),
            ["é😀"]
        );
    }

    #[test]
    fn a_bom_is_dropped_only_at_the_start() {
        assert_eq!(strings(lines(&[b"\xEF\xBB\xBFa\n"])), ["a"]);
        assert_eq!(strings(lines(&[b"\xEF", b"\xBB", b"\xBFa\n"])), ["a"]);
        assert_eq!(
            lines(&[b"a\n\xEF\xBB\xBFb\n"]),
            [b"a".to_vec(), b"\xEF\xBB\xBFb".to_vec()]
        );
    }

    #[test]
    fn a_false_start_of_a_bom_is_kept_as_data() {
        assert_eq!(lines(&[b"\xEF", b"\xBBx\n"]), [b"\xEF\xBBx".to_vec()]);
        assert_eq!(lines(&[b"\xEF\xBB"]), [b"\xEF\xBB".to_vec()]);
    }

    #[test]
    fn finish_completes_an_unterminated_line() {
        assert_eq!(strings(lines(&[b"a\nb"])), ["a", "b"]);
        assert_eq!(strings(lines(&[b"a\r"])), ["a"]);
    }
}
