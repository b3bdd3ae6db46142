//! The hot loop of the parser: copying a run of string text.
//!
//! Plain text is found with `memchr` (the next `"` or `\`) and copied in one `push_str`; a
//! one-letter escape whose letter is in the same fragment is decoded on the spot. Only `\u`
//! escapes and escapes cut by a fragment boundary go through the byte-at-a-time [`Escape`]
//! state machine.
//!
//! [`Escape`]: super::escape::Escape

use super::escape::simple_escape;

/// Why a string scan stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At the end of the fragment.
    End,
    /// At the closing quote.
    Quote,
    /// At a backslash whose escape needs the state machine.
    Backslash,
    /// At a raw control character, which JSON forbids in strings.
    Control(u8),
}

/// Appends the string text of `fragment` from byte `start` to `buf` and returns the offset of the
/// byte it stopped at (the fragment's length for [`Stop::End`]) and why.
pub(crate) fn scan_string(fragment: &str, start: usize, buf: &mut String) -> (usize, Stop) {
    let bytes = fragment.as_bytes();
    let mut i = start;
    loop {
        let len = find_special(bytes, i);
        // Every slice boundary here is at an ASCII byte or the end, so a char boundary.
        buf.push_str(fragment.get(i..i + len).unwrap_or_default());
        i += len;
        match bytes.get(i) {
            None => return (i, Stop::End),
            Some(b'"') => return (i, Stop::Quote),
            Some(b'\\') => match bytes.get(i + 1).copied().and_then(simple_escape) {
                Some(c) => {
                    buf.push(c);
                    i += 2;
                }
                None => return (i, Stop::Backslash),
            },
            Some(&control) => return (i, Stop::Control(control)),
        }
    }
}

/// Which bytes end a run of plain string text: `"`, `\\` and the control characters.
static SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGH_BITS: u64 = u64::from_le_bytes([0x80; 8]);

/// The high bit of each byte of `word` (eight bytes of text, little-endian) that is `"`, `\\` or
/// a control character, possibly with false hits only in bytes above a true one: the classic
/// "has a zero byte" trick, whose borrows only ever run upwards from a real hit, so the lowest
/// set bit is exact.
fn special_mask(word: u64) -> u64 {
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let quote_hits = quote.wrapping_sub(ONES) & !quote;
    let backslash_hits = backslash.wrapping_sub(ONES) & !backslash;
    let control_hits = word.wrapping_sub(ONES * 0x20) & !word;
    (quote_hits | backslash_hits | control_hits) & HIGH_BITS
}

/// How many bytes [`find_special`] checks word by word before handing a long run to `memchr`.
const SHORT_RUN: usize = 32;

/// The length of the run of plain string text (no `"`, `\\` or control character) that starts
/// at byte `start` of `bytes`. The first [`SHORT_RUN`] bytes (a streamed fragment is typically a
/// few bytes, and escapes cut runs short) are checked eight at a time with [`special_mask`]; a
/// tail shorter than eight bytes is checked with one more word, the last eight bytes of `bytes`
/// with those before `start` made harmless, or with a lookup table as `serde_json` does when
/// `bytes` is shorter than a word; past [`SHORT_RUN`], `memchr` finds the quote or backslash and
/// a branch-free pass checks the run for control characters.
fn find_special(bytes: &[u8], start: usize) -> usize {
    let mut offset = start;
    while offset < start + SHORT_RUN
        && let Some(chunk) = bytes.get(offset..).and_then(<[u8]>::first_chunk::<8>)
    {
        let mask = special_mask(u64::from_le_bytes(*chunk));
        if mask != 0 {
            return offset - start + (mask.trailing_zeros() / 8) as usize;
        }
        offset += 8;
    }
    let rest = bytes.get(offset..).unwrap_or_default();
    if rest.is_empty() {
        return offset - start;
    }
    if rest.len() < 8 {
        if let Some(last) = bytes.last_chunk::<8>() {
            // The word ends at the end of `bytes`; its first `8 - rest.len()` bytes were checked
            // already. They are replaced by plain text, so that no hit (and no borrow of the
            // trick) can come from them.
            let done = 8 - rest.len();
            let keep = u64::MAX << (done * 8);
            let word = (u64::from_le_bytes(*last) & keep) | ((ONES * u64::from(b'a')) & !keep);
            let mask = special_mask(word);
            let at = if mask == 0 {
                bytes.len()
            } else {
                bytes.len() - 8 + (mask.trailing_zeros() / 8) as usize
            };
            return at - start;
        }
        return offset - start
            + rest
                .iter()
                .position(|&b| SPECIAL[usize::from(b)])
                .unwrap_or(rest.len());
    }
    let end = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
    let run = rest.get(..end).unwrap_or_default();
    offset - start
        + if run.iter().fold(false, |found, &b| found | (b < 0x20)) {
            run.iter().position(|&b| b < 0x20).unwrap_or(end)
        } else {
            end
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(fragment: &str) -> (String, usize, Stop) {
        let mut buf = String::new();
        let (at, stop) = scan_string(fragment, 0, &mut buf);
        (buf, at, stop)
    }

    #[test]
    fn copies_plain_text_to_the_end_of_the_fragment() {
        assert_eq!(scan("héllo 😀"), ("héllo 😀".into(), 11, Stop::End));
    }

    #[test]
    fn stops_at_the_closing_quote() {
        assert_eq!(scan("ab\"cd"), ("ab".into(), 2, Stop::Quote));
    }

    #[test]
    fn decodes_one_letter_escapes_in_place() {
        assert_eq!(
            scan(r#"a\n\t\"\\\/b\"#),
            ("a\n\t\"\\/b".into(), 12, Stop::Backslash)
        );
    }

    #[test]
    fn leaves_unicode_and_invalid_escapes_to_the_state_machine() {
        assert_eq!(scan(r"ab\u00e9"), ("ab".into(), 2, Stop::Backslash));
        assert_eq!(scan(r"ab\x"), ("ab".into(), 2, Stop::Backslash));
    }

    #[test]
    fn finds_the_end_of_short_and_long_runs() {
        for len in [0, 1, 31, 32, 100] {
            let mut text = "x".repeat(len);
            assert_eq!(find_special(text.as_bytes(), 0), len);
            text.push('\\');
            assert_eq!(find_special(text.as_bytes(), 0), len);
            text.insert(0, '\n');
            assert_eq!(find_special(text.as_bytes(), 0), 0);
            text.insert(0, '"');
            assert_eq!(find_special(text.as_bytes(), 0), 0);
        }
        let long = format!("{}\u{1}{}\"", "x".repeat(40), "y".repeat(40));
        assert_eq!(find_special(long.as_bytes(), 0), 40);
    }

    #[test]
    fn finds_every_special_byte_at_every_position_of_a_short_run() {
        let naive = |bytes: &[u8], start: usize| {
            bytes[start..]
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(bytes.len() - start)
        };
        for len in 1..48 {
            for start in 0..len {
                for at in start..len {
                    for byte in 0..=u8::MAX {
                        // Bytes before `start` are specials (as after an escape), which must not
                        // leak into the result; a later special must not hide the first one.
                        let mut bytes = vec![b'x'; len];
                        for (i, b) in bytes[..start].iter_mut().enumerate() {
                            *b = [b'\\', b'"', 0x1f][i % 3];
                        }
                        bytes[at] = byte;
                        if at + 1 < len {
                            bytes[len - 1] = b'"';
                        }
                        assert_eq!(
                            find_special(&bytes, start),
                            naive(&bytes, start),
                            "{bytes:?} from {start}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_special_just_before_the_start_does_not_flag_its_neighbour() {
        // `]` is `\\` + 1, `#` is `"` + 1 and space is 0x1f + 1: the neighbours a borrow of the
        // word trick would wrongly flag.
        for text in [r"ab\\]cd", "ab\\\"#cd", "abcdefgh\\]xy", "abcdefgh\"#x"] {
            let bytes = text.as_bytes();
            let start = text.find([']', '#']).unwrap();
            assert_eq!(find_special(bytes, start), bytes.len() - start, "{text}");
        }
    }

    #[test]
    fn stops_at_a_control_character() {
        assert_eq!(scan("ab\u{1f}c"), ("ab".into(), 2, Stop::Control(0x1f)));
        assert_eq!(scan("\tx"), (String::new(), 0, Stop::Control(b'\t')));
    }
}
