//! Backslash escapes inside JSON strings, decoded a byte at a time.
//!
//! An escape can be split across fragments anywhere (`\`, `\u00`, a high surrogate waiting for
//! its low half `\ud83d\ude00`), so its progress lives in [`Escape`] between bytes. Nothing of
//! an escape reaches the string until the escape is whole.

/// Progress through one escape, after its backslash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Escape {
    /// Just after the `\`.
    Backslash,
    /// In the four hex digits of a `\u` escape; `high` is the high surrogate this escape must
    /// complete, if any.
    Hex {
        /// The preceding high surrogate, if this is the low half of a pair.
        high: Option<u16>,
        /// Digits read so far (0 to 3).
        digits: u8,
        /// Their value.
        acc: u16,
    },
    /// After a high surrogate's `\uXXXX`, waiting for the `\` of its low half.
    LowBackslash(u16),
    /// After that `\`, waiting for the `u`.
    LowU(u16),
}

/// What one more byte does to an escape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EscapeStep {
    /// The escape goes on.
    Continue(Escape),
    /// The escape is complete and stands for this character.
    Char(char),
}

/// Why an escape is invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EscapeFault {
    /// Not a JSON escape, or not a hex digit.
    Invalid,
    /// Half of a surrogate pair without the other half.
    LoneSurrogate,
}

const HIGH_SURROGATES: std::ops::RangeInclusive<u16> = 0xD800..=0xDBFF;
const LOW_SURROGATES: std::ops::RangeInclusive<u16> = 0xDC00..=0xDFFF;

impl Escape {
    /// Feeds one byte.
    pub(crate) fn step(self, byte: u8) -> Result<EscapeStep, EscapeFault> {
        match self {
            Escape::Backslash => simple(byte),
            Escape::Hex { high, digits, acc } => {
                let digit = hex_digit(byte).ok_or(EscapeFault::Invalid)?;
                let acc = (acc << 4) | digit;
                if digits < 3 {
                    return Ok(EscapeStep::Continue(Escape::Hex {
                        high,
                        digits: digits + 1,
                        acc,
                    }));
                }
                code_unit(high, acc)
            }
            Escape::LowBackslash(high) if byte == b'\\' => {
                Ok(EscapeStep::Continue(Escape::LowU(high)))
            }
            Escape::LowU(high) if byte == b'u' => Ok(EscapeStep::Continue(Escape::Hex {
                high: Some(high),
                digits: 0,
                acc: 0,
            })),
            Escape::LowBackslash(_) | Escape::LowU(_) => Err(EscapeFault::LoneSurrogate),
        }
    }
}

fn simple(byte: u8) -> Result<EscapeStep, EscapeFault> {
    if byte == b'u' {
        return Ok(EscapeStep::Continue(Escape::Hex {
            high: None,
            digits: 0,
            acc: 0,
        }));
    }
    simple_escape(byte)
        .map(EscapeStep::Char)
        .ok_or(EscapeFault::Invalid)
}

/// The character a one-letter escape (`\n`, `\"`, ...) stands for, given the byte after the
/// backslash; `None` for `u` (which starts a longer escape) and for invalid escapes.
pub(crate) fn simple_escape(byte: u8) -> Option<char> {
    Some(match byte {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

fn code_unit(high: Option<u16>, unit: u16) -> Result<EscapeStep, EscapeFault> {
    match high {
        Some(high) if LOW_SURROGATES.contains(&unit) => {
            let code = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
            char::from_u32(code)
                .map(EscapeStep::Char)
                .ok_or(EscapeFault::LoneSurrogate)
        }
        Some(_) => Err(EscapeFault::LoneSurrogate),
        None if HIGH_SURROGATES.contains(&unit) => {
            Ok(EscapeStep::Continue(Escape::LowBackslash(unit)))
        }
        None => char::from_u32(u32::from(unit))
            .map(EscapeStep::Char)
            .ok_or(EscapeFault::LoneSurrogate),
    }
}

fn hex_digit(byte: u8) -> Option<u16> {
    char::from(byte)
        .to_digit(16)
        .and_then(|d| u16::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(escape: &str) -> Result<Option<char>, EscapeFault> {
        let mut bytes = escape.bytes();
        assert_eq!(bytes.next(), Some(b'\\'));
        let mut state = Escape::Backslash;
        for byte in bytes {
            match state.step(byte)? {
                EscapeStep::Continue(next) => state = next,
                EscapeStep::Char(c) => return Ok(Some(c)),
            }
        }
        Ok(None)
    }

    #[test]
    fn simple_escapes() {
        let cases = [
            ("\\\"", '"'),
            ("\\\\", '\\'),
            ("\\/", '/'),
            ("\\b", '\u{8}'),
            ("\\f", '\u{c}'),
            ("\\n", '\n'),
            ("\\r", '\r'),
            ("\\t", '\t'),
        ];
        for (escape, expected) in cases {
            assert_eq!(decode(escape), Ok(Some(expected)), "{escape}");
        }
    }

    #[test]
    fn unicode_escapes_and_surrogate_pairs() {
        assert_eq!(decode("\\u00e9"), Ok(Some('é')));
        assert_eq!(decode("\\u00E9"), Ok(Some('é')));
        assert_eq!(decode("\\ud83d\\ude00"), Ok(Some('😀')));
    }

    #[test]
    fn incomplete_escapes_produce_nothing_yet() {
        for prefix in [
            "\\",
            "\\u",
            "\\u00",
            "\\u00e",
            "\\ud83d",
            "\\ud83d\\",
            "\\ud83d\\ude0",
        ] {
            assert_eq!(decode(prefix), Ok(None), "{prefix}");
        }
    }

    #[test]
    fn invalid_escapes_are_rejected() {
        assert_eq!(decode("\\x"), Err(EscapeFault::Invalid));
        assert_eq!(decode("\\u00g0"), Err(EscapeFault::Invalid));
        assert_eq!(decode("\\ude00"), Err(EscapeFault::LoneSurrogate));
        assert_eq!(decode("\\ud83dx"), Err(EscapeFault::LoneSurrogate));
        assert_eq!(decode("\\ud83d\\n"), Err(EscapeFault::LoneSurrogate));
        assert_eq!(decode("\\ud83d\\u0041"), Err(EscapeFault::LoneSurrogate));
    }
}
