//! Errors of the partial-JSON parser.
//!
//! Every error carries the byte offset (from the start of the whole input, not of the fragment)
//! at which the input stopped being a prefix of any JSON document.

use thiserror::Error;

/// Why the input received so far is not a prefix of any JSON document, or why it ended early.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PartialJsonError {
    /// A character that no JSON document can have at this place.
    #[error("unexpected {found:?} at byte {offset}: expected {expected}")]
    Unexpected {
        /// The offending character.
        found: char,
        /// Its byte offset in the whole input.
        offset: usize,
        /// What the grammar allows here.
        expected: &'static str,
    },
    /// A backslash escape that JSON does not define, or a `\u` escape with a non-hex digit.
    #[error("invalid escape in a string at byte {offset}")]
    InvalidEscape {
        /// Byte offset of the offending character.
        offset: usize,
    },
    /// A `\u` escape naming half of a UTF-16 surrogate pair without the other half.
    #[error("unpaired UTF-16 surrogate in a \\u escape at byte {offset}")]
    LoneSurrogate {
        /// Byte offset where the pair was found to be broken.
        offset: usize,
    },
    /// A raw control character (U+0000 to U+001F) inside a string; JSON requires it escaped.
    #[error("unescaped control character U+{code:04X} in a string at byte {offset}")]
    ControlCharacter {
        /// The code point.
        code: u32,
        /// Its byte offset.
        offset: usize,
    },
    /// A syntactically valid number that does not fit a JSON number value (such as `1e400`).
    #[error("number {text:?} ending at byte {offset} is out of range")]
    NumberOutOfRange {
        /// The number's text.
        text: String,
        /// Byte offset just past the number.
        offset: usize,
    },
    /// Containers nested deeper than the parser allows.
    #[error("containers nested deeper than {limit} levels at byte {offset}")]
    TooDeep {
        /// The nesting limit.
        limit: usize,
        /// Byte offset of the bracket that went past it.
        offset: usize,
    },
    /// `finish` was called before the document was complete.
    #[error("input ended at byte {offset} before the JSON document was complete")]
    Incomplete {
        /// Total bytes received.
        offset: usize,
    },
    /// `push` or `finish` was called after a successful `finish`.
    #[error("the parser was already finished")]
    Finished,
}
