//! Where API keys come from.
//!
//! A provider holds a [`KeySource`] and asks it for the key on every request, so a key changed
//! in the settings applies to the next request. The CLI uses [`EnvKey`] with the conventional
//! variables ([`ANTHROPIC_API_KEY`], [`OPENAI_API_KEY`], [`OPENROUTER_API_KEY`]), taken out of
//! its environment once at start so that no command it runs can read them there.

use std::fmt;
use std::sync::Arc;

use crate::secrets::Secret;
use crate::secrets::process::take_env;

pub const ANTHROPIC_API_KEY: &str = "ANTHROPIC_API_KEY";
pub const OPENAI_API_KEY: &str = "OPENAI_API_KEY";
pub const OPENROUTER_API_KEY: &str = "OPENROUTER_API_KEY";

/// Supplies an API key, or `None` when none is configured.
pub trait KeySource: Send + Sync + fmt::Debug {
    fn api_key(&self) -> Option<Secret>;
    /// Where the user should set the key, completing "Set …" in error messages.
    fn describe(&self) -> String;
    /// Whether the user can change the key while this program runs (in the settings), so
    /// that a request the provider refused for its key is worth asking again.
    fn can_change(&self) -> bool;
}

/// A key taken from an environment variable when the program started.
#[derive(Debug, Clone)]
pub struct EnvKey {
    var: String,
    key: Option<Secret>,
}

impl EnvKey {
    /// Takes the key in `var` out of the environment (see [`take_env`]).
    ///
    /// # Safety
    /// As [`take_env`]: call it before any other thread exists.
    pub unsafe fn take(var: impl Into<String>) -> Self {
        let var = var.into();
        // SAFETY: the caller's promise.
        let key = unsafe { take_env(&var) };
        Self { var, key }
    }

    /// The variable it was read from.
    pub fn var(&self) -> &str {
        &self.var
    }

    /// Whether the variable held a key.
    pub fn is_set(&self) -> bool {
        self.key.is_some()
    }
}

impl KeySource for EnvKey {
    fn api_key(&self) -> Option<Secret> {
        self.key.clone()
    }

    fn describe(&self) -> String {
        format!("the {} environment variable", self.var)
    }

    /// The variable was read at start; nothing can change it while the program runs.
    fn can_change(&self) -> bool {
        false
    }
}

/// A fixed key (from the app's settings or a test).
#[derive(Debug, Clone)]
pub struct StaticKey(pub Option<Secret>);

impl KeySource for StaticKey {
    fn api_key(&self) -> Option<Secret> {
        self.0.clone().filter(|secret| !secret.is_blank())
    }

    fn describe(&self) -> String {
        "the API key setting".to_string()
    }

    fn can_change(&self) -> bool {
        false
    }
}

/// A shared key source.
pub type SharedKeySource = Arc<dyn KeySource>;

/// No key at all (local servers such as Ollama).
pub fn no_key() -> SharedKeySource {
    Arc::new(StaticKey(None))
}

/// A fixed key.
pub fn static_key(key: impl Into<String>) -> SharedKeySource {
    Arc::new(StaticKey(Some(Secret::new(key))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_key_takes_the_variable_once_and_ignores_blank_values() {
        let var = "FOREMAN_TEST_KEY_SOURCE_VAR";
        // SAFETY: this test is the only user of this variable name.
        unsafe { std::env::set_var(var, "sk-test-123") };
        let source = unsafe { EnvKey::take(var) };
        assert_eq!(source.api_key().unwrap().expose(), "sk-test-123");
        assert!(std::env::var_os(var).is_none(), "the variable is gone");
        assert_eq!(
            source.describe(),
            "the FOREMAN_TEST_KEY_SOURCE_VAR environment variable"
        );
        unsafe { std::env::set_var(var, "   ") };
        assert!(unsafe { EnvKey::take(var) }.api_key().is_none());
        assert!(!unsafe { EnvKey::take(var) }.is_set());
    }

    #[test]
    fn static_key_debug_is_redacted() {
        let source = static_key("sk-hidden");
        assert!(!format!("{source:?}").contains("sk-hidden"));
        assert!(no_key().api_key().is_none());
    }
}
