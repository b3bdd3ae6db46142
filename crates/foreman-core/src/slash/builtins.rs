//! Foreman's own `/` entries: what the app and the engine can already do, reachable from the
//! composer. `/compact` and `/retry` are ops the engine answers (a message that is exactly one of
//! them runs it); `/clear`, `/model` and `/mode` are the client's (a new session, the model
//! picker, the approval mode).

use crate::protocol::{Op, SlashEntry, SlashKind};

/// One built-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuiltIn {
    Compact,
    Clear,
    Model,
    Mode,
    Retry,
}

impl BuiltIn {
    pub const ALL: [BuiltIn; 5] = [
        BuiltIn::Compact,
        BuiltIn::Clear,
        BuiltIn::Model,
        BuiltIn::Mode,
        BuiltIn::Retry,
    ];

    /// Typed after `/`.
    pub fn name(self) -> &'static str {
        match self {
            BuiltIn::Compact => "compact",
            BuiltIn::Clear => "clear",
            BuiltIn::Model => "model",
            BuiltIn::Mode => "mode",
            BuiltIn::Retry => "retry",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            BuiltIn::Compact => "Summarise the conversation now to free the context window",
            BuiltIn::Clear => "Start a new session (this one stays in the history)",
            BuiltIn::Model => "Choose the model",
            BuiltIn::Mode => "Choose the approval mode",
            BuiltIn::Retry => "Run the model again after a task ended with an error",
        }
    }

    /// The op that runs it, when the engine can; `None` when the client does it.
    pub fn op(self) -> Option<Op> {
        match self {
            BuiltIn::Compact => Some(Op::Compact),
            BuiltIn::Retry => Some(Op::Retry),
            BuiltIn::Clear | BuiltIn::Model | BuiltIn::Mode => None,
        }
    }

    /// The built-in `text` is (`/compact`, with nothing after it but spaces).
    pub fn parse(text: &str) -> Option<BuiltIn> {
        let name = text.trim().strip_prefix('/')?;
        Self::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether `name` is a built-in's.
    pub fn is_builtin(name: &str) -> bool {
        Self::ALL.iter().any(|b| b.name() == name)
    }

    pub fn entry(self) -> SlashEntry {
        SlashEntry {
            name: self.name().to_owned(),
            kind: SlashKind::BuiltIn,
            description: self.description().to_owned(),
            argument_hint: None,
            source: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_that_is_a_builtin_names_it() {
        assert_eq!(BuiltIn::parse("/compact"), Some(BuiltIn::Compact));
        assert_eq!(BuiltIn::parse("  /retry \n"), Some(BuiltIn::Retry));
        assert_eq!(BuiltIn::parse("/compact now"), None);
        assert_eq!(BuiltIn::parse("compact"), None);
        assert_eq!(BuiltIn::Compact.op(), Some(Op::Compact));
        assert_eq!(BuiltIn::Clear.op(), None);
        assert!(BuiltIn::is_builtin("model") && !BuiltIn::is_builtin("review"));
    }
}
