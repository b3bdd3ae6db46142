//! `Secret`: an API key that never shows itself.
//!
//! `Debug` and `Display` print `[REDACTED]`; the value is only reachable through
//! [`Secret::expose`], which the HTTP layer calls when it builds a header. Every secret made is
//! remembered ([`super::remember`]), so tool output is scrubbed of it.

use std::fmt;

/// A string that must never appear in logs, events, errors or Debug output.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        let value = value.into();
        super::remember(&value);
        Self(value)
    }

    /// The secret value, for building an Authorization/x-api-key header only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// True when the value is empty (or only whitespace).
    pub fn is_blank(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([REDACTED])")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[REDACTED]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_prints_the_value() {
        let secret = Secret::new("sk-ant-very-secret");
        assert_eq!(format!("{secret}"), "[REDACTED]");
        assert!(!format!("{secret:?}").contains("very-secret"));
        assert!(!format!("{:?}", Some(&secret)).contains("very-secret"));
        assert_eq!(secret.expose(), "sk-ant-very-secret");
        assert!(Secret::new("  ").is_blank());
    }
}
