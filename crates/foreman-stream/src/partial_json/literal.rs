//! The literals `true`, `false` and `null`, matched a byte at a time.
//!
//! A literal is shown only once all of its letters have arrived.

use serde_json::Value;

/// One of JSON's three literals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Literal {
    True,
    False,
    Null,
}

impl Literal {
    /// The literal a value starting with `byte` must be, if any.
    pub(crate) fn start(byte: u8) -> Option<Self> {
        match byte {
            b't' => Some(Self::True),
            b'f' => Some(Self::False),
            b'n' => Some(Self::Null),
            _ => None,
        }
    }

    /// The literal's full spelling.
    pub(crate) fn text(self) -> &'static str {
        match self {
            Self::True => "true",
            Self::False => "false",
            Self::Null => "null",
        }
    }

    /// The literal's value.
    pub(crate) fn value(self) -> Value {
        match self {
            Self::True => Value::Bool(true),
            Self::False => Value::Bool(false),
            Self::Null => Value::Null,
        }
    }

    /// Whether `byte` is the literal's letter at `index`.
    pub(crate) fn matches(self, index: usize, byte: u8) -> bool {
        self.text().as_bytes().get(index) == Some(&byte)
    }

    /// Whether `matched` letters make the whole literal.
    pub(crate) fn is_complete(self, matched: usize) -> bool {
        matched == self.text().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_each_literal() {
        for literal in [Literal::True, Literal::False, Literal::Null] {
            let text = literal.text();
            let bytes = text.as_bytes();
            assert_eq!(Literal::start(bytes[0]), Some(literal));
            for (index, byte) in bytes.iter().enumerate() {
                assert!(literal.matches(index, *byte));
                assert_eq!(literal.is_complete(index + 1), index + 1 == text.len());
            }
            assert!(!literal.matches(text.len(), b'x'));
        }
        assert_eq!(Literal::True.value(), Value::Bool(true));
        assert_eq!(Literal::Null.value(), Value::Null);
        assert_eq!(Literal::start(b'x'), None);
    }
}
