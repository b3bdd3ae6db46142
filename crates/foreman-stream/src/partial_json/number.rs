//! The JSON number grammar as a byte-at-a-time state machine.
//!
//! The parser keeps a number's text until a byte that cannot continue it arrives (or the input
//! ends), so a number is only ever shown whole: `12` followed by `3` is `123`, never `12` first.

use serde_json::Number;

/// Where in `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` the number is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberState {
    /// After a leading `-`.
    Minus,
    /// After a leading `0` (no more integer digits may follow).
    Zero,
    /// In the integer digits.
    Int,
    /// After the `.`.
    Dot,
    /// In the fraction digits.
    Frac,
    /// After `e` or `E`.
    Exp,
    /// After the exponent's sign.
    ExpSign,
    /// In the exponent digits.
    ExpDigits,
}

/// What one more byte does to a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberStep {
    /// The byte belongs to the number.
    Continue(NumberState),
    /// The number is complete and the byte is not part of it.
    End,
    /// The byte cannot follow: the input is not JSON.
    Invalid,
}

impl NumberState {
    /// The state after a number's first byte, or `None` if `byte` cannot start a number.
    pub(crate) fn start(byte: u8) -> Option<Self> {
        match byte {
            b'-' => Some(Self::Minus),
            b'0' => Some(Self::Zero),
            b'1'..=b'9' => Some(Self::Int),
            _ => None,
        }
    }

    /// Feeds one byte.
    pub(crate) fn step(self, byte: u8) -> NumberStep {
        use NumberState::*;
        let next = match (self, byte) {
            (Minus, b'0') => Some(Zero),
            (Minus | Int, b'1'..=b'9') | (Int, b'0') => Some(Int),
            (Zero | Int, b'.') => Some(Dot),
            (Dot | Frac, b'0'..=b'9') => Some(Frac),
            (Zero | Int | Frac, b'e' | b'E') => Some(Exp),
            (Exp, b'+' | b'-') => Some(ExpSign),
            (Exp | ExpSign | ExpDigits, b'0'..=b'9') => Some(ExpDigits),
            _ => None,
        };
        match next {
            Some(state) => NumberStep::Continue(state),
            None if self.is_complete() && !byte.is_ascii_digit() => NumberStep::End,
            None => NumberStep::Invalid,
        }
    }

    /// Whether the text so far is a whole number.
    pub(crate) fn is_complete(self) -> bool {
        matches!(self, Self::Zero | Self::Int | Self::Frac | Self::ExpDigits)
    }

    /// What the grammar expects after this state, for error messages.
    pub(crate) fn expected(self) -> &'static str {
        match self {
            Self::Zero => "`.`, `e` or the end of the number (no leading zeros)",
            _ => "a digit",
        }
    }
}

/// Converts a complete number's text to the value `serde_json` gives it (integers as `u64` or
/// `i64` when they fit, `f64` otherwise), or `None` if it is out of range.
pub(crate) fn to_number(text: &str) -> Option<Number> {
    serde_json::from_str(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Option<NumberState> {
        let mut bytes = text.bytes();
        let mut state = NumberState::start(bytes.next()?)?;
        for byte in bytes {
            match state.step(byte) {
                NumberStep::Continue(next) => state = next,
                NumberStep::End | NumberStep::Invalid => return None,
            }
        }
        Some(state)
    }

    #[test]
    fn accepts_json_numbers() {
        for text in [
            "0", "-0", "7", "-12", "3.25", "0.5", "1e9", "1E+9", "-2.5e-3", "10",
        ] {
            let state = run(text).unwrap();
            assert!(state.is_complete(), "{text}");
        }
    }

    #[test]
    fn prefixes_that_are_not_yet_numbers_are_incomplete() {
        for text in ["-", "1.", "1e", "1e+", "-0."] {
            assert!(!run(text).unwrap().is_complete(), "{text}");
        }
    }

    #[test]
    fn rejects_what_json_forbids() {
        for text in ["01", "-a", "1.e", "1e+e", "+1", ".5", "-.5", "00"] {
            assert!(run(text).is_none_or(|s| !s.is_complete()), "{text}");
        }
        assert_eq!(NumberState::Zero.step(b'1'), NumberStep::Invalid);
        assert_eq!(NumberState::Dot.step(b','), NumberStep::Invalid);
    }

    #[test]
    fn a_complete_number_ends_at_a_non_number_byte() {
        assert_eq!(NumberState::Int.step(b','), NumberStep::End);
        assert_eq!(NumberState::Frac.step(b' '), NumberStep::End);
        assert_eq!(NumberState::ExpDigits.step(b']'), NumberStep::End);
    }

    #[test]
    fn numbers_convert_like_serde_json() {
        assert_eq!(to_number("12").unwrap().as_u64(), Some(12));
        assert_eq!(to_number("-12").unwrap().as_i64(), Some(-12));
        assert_eq!(to_number("2.5").unwrap().as_f64(), Some(2.5));
        assert_eq!(
            to_number("18446744073709551616").unwrap().as_f64(),
            Some(18446744073709551616.0)
        );
        assert!(to_number("1e400").is_none());
    }
}
