//! [`EditText`]: a file's text as the edit tools match it — LF line breaks, no byte-order mark —
//! with each line break's own ending kept aside, so a write puts every untouched line back
//! byte for byte. A file may mix `\n`, `\r\n` and a lone `\r`; a line an edit adds takes the
//! ending of the line where the edit starts (or the one before it at the end of the file).

use std::ops::Range;

const BOM: char = '\u{feff}';

/// How one line break was written in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Lf,
    CrLf,
    Cr,
}

impl Ending {
    fn as_str(self) -> &'static str {
        match self {
            Self::Lf => "\n",
            Self::CrLf => "\r\n",
            Self::Cr => "\r",
        }
    }
}

/// A file's text for editing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditText {
    bom: bool,
    /// The text with every line break as `\n`.
    lf: String,
    /// The ending of each `\n` of `lf`, in order.
    endings: Vec<Ending>,
}

impl EditText {
    /// Reads `original` (any mix of line endings, an optional byte-order mark).
    pub fn parse(original: &str) -> Self {
        let (bom, body) = match original.strip_prefix(BOM) {
            Some(rest) => (true, rest),
            None => (false, original),
        };
        let mut lf = String::with_capacity(body.len());
        let mut endings = Vec::new();
        let mut rest = body;
        while let Some(at) = rest.find(['\r', '\n']) {
            lf.push_str(&rest[..at]);
            lf.push('\n');
            let ending = match (&rest[at..at + 1], rest.as_bytes().get(at + 1)) {
                ("\r", Some(b'\n')) => Ending::CrLf,
                ("\r", _) => Ending::Cr,
                _ => Ending::Lf,
            };
            endings.push(ending);
            rest = &rest[at + ending.as_str().len()..];
        }
        lf.push_str(rest);
        Self { bom, lf, endings }
    }

    /// The text as the tools match it.
    pub fn lf(&self) -> &str {
        &self.lf
    }

    /// Whether any line ends in `\r\n`.
    pub fn crlf(&self) -> bool {
        self.endings.contains(&Ending::CrLf)
    }

    /// The ending most lines have (LF for a file of one line).
    fn usual(&self) -> Ending {
        let count = |e| self.endings.iter().filter(|&&x| x == e).count();
        [Ending::Lf, Ending::CrLf, Ending::Cr]
            .into_iter()
            .max_by_key(|&e| (count(e), e == Ending::Lf))
            .unwrap_or(Ending::Lf)
    }

    /// Replaces each range of `lf` (in order, not overlapping) with its LF text. The line breaks
    /// outside the ranges keep their endings; those a replacement brings take the ending of the
    /// first line break at or after its start.
    pub fn splice(&mut self, edits: &[(Range<usize>, String)]) {
        let usual = self.usual();
        let mut lf = String::with_capacity(self.lf.len());
        let mut endings = Vec::with_capacity(self.endings.len());
        let (mut at, mut line) = (0, 0);
        for (range, with) in edits {
            let kept = &self.lf[at..range.start];
            let breaks = count_breaks(kept);
            lf.push_str(kept);
            endings.extend_from_slice(&self.endings[line..line + breaks]);
            line += breaks;
            let fill = self
                .endings
                .get(line)
                .or_else(|| line.checked_sub(1).and_then(|i| self.endings.get(i)))
                .copied()
                .unwrap_or(usual);
            lf.push_str(with);
            endings.extend(std::iter::repeat_n(fill, count_breaks(with)));
            line += count_breaks(&self.lf[range.clone()]);
            at = range.end;
        }
        let tail = &self.lf[at..];
        lf.push_str(tail);
        endings.extend_from_slice(&self.endings[line..]);
        self.lf = lf;
        self.endings = endings;
    }

    /// The file's bytes: each line break with its ending, the byte-order mark if it had one.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.lf.len() + self.endings.len() + 3);
        if self.bom {
            out.push(BOM);
        }
        let mut endings = self.endings.iter();
        for (i, part) in self.lf.split('\n').enumerate() {
            if i > 0 {
                out.push_str(endings.next().map_or("\n", |e| e.as_str()));
            }
            out.push_str(part);
        }
        out
    }
}

fn count_breaks(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count()
}

/// `text` with every `\r\n` and lone `\r` as `\n` (what an old or new string means).
pub fn to_lf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mix_of_endings_round_trips() {
        for original in [
            "",
            "a",
            "a\n",
            "a\r\nb\r\n",
            "a\rb\r",
            "a\nb\r\nc\rd",
            "\u{feff}x\r\ny",
            "\r\n\r\n\n\r",
        ] {
            assert_eq!(EditText::parse(original).render(), original, "{original:?}");
        }
    }

    #[test]
    fn untouched_lines_keep_their_endings_and_new_ones_take_their_neighbours() {
        let mut text = EditText::parse("one\r\ntwo\nthree\r\n");
        assert_eq!(text.lf(), "one\ntwo\nthree\n");
        // Replace "two" with two lines: they take the ending of the line they start on.
        let at = text.lf().find("two").unwrap();
        text.splice(&[(at..at + 3, "2a\n2b".into())]);
        assert_eq!(text.render(), "one\r\n2a\n2b\nthree\r\n");
        let mut text = EditText::parse("one\r\ntwo");
        let at = text.lf().len();
        text.splice(&[(at..at, "\nthree".into())]);
        assert_eq!(text.render(), "one\r\ntwo\r\nthree");
    }
}
