//! API keys in the operating system's credential store (Secret Service on Linux, Keychain on
//! macOS, Credential Manager on Windows), through the `keyring` crate.
//!
//! The app writes keys here from its settings screen; the app and the CLI read them at request
//! time with [`KeyringKey`]. A key never leaves this module except as a [`Secret`] handed to a
//! provider: it is not returned to the UI, logged, or put in an error.

use thiserror::Error;

use super::keys::KeySource;
use crate::secrets::Secret;

/// The service name of every Foreman entry (`secret-tool lookup service foreman username NAME`).
pub const KEYRING_SERVICE: &str = "foreman";

/// The credential store failed (locked, not running, refused).
#[derive(Debug, Error)]
#[error("the system keychain {action} failed: {reason}")]
pub struct KeyringError {
    action: &'static str,
    reason: String,
}

impl KeyringError {
    fn new(action: &'static str, error: &keyring::Error) -> Self {
        // keyring's messages name the platform failure, never the secret.
        Self {
            action,
            reason: error.to_string(),
        }
    }
}

/// One API key in the credential store, under [`KEYRING_SERVICE`] and an account name such as
/// `anthropic`.
#[derive(Debug, Clone)]
pub struct KeyringKey {
    account: String,
}

impl KeyringKey {
    pub fn new(account: impl Into<String>) -> Self {
        Self {
            account: account.into(),
        }
    }

    /// The account name of the entry.
    pub fn account(&self) -> &str {
        &self.account
    }

    fn entry(&self, action: &'static str) -> Result<keyring::Entry, KeyringError> {
        keyring::Entry::new(KEYRING_SERVICE, &self.account)
            .map_err(|e| KeyringError::new(action, &e))
    }

    /// Stores `key`, replacing any earlier one. A blank key is refused.
    pub fn store(&self, key: &str) -> Result<(), KeyringError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(KeyringError {
                action: "write",
                reason: "the key is empty".into(),
            });
        }
        self.entry("write")?
            .set_password(key)
            .map_err(|e| KeyringError::new("write", &e))
    }

    /// The stored key, `None` when there is none.
    pub fn read(&self) -> Result<Option<Secret>, KeyringError> {
        match self.entry("read")?.get_password() {
            Ok(key) => Ok(Some(Secret::new(key)).filter(|s| !s.is_blank())),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(KeyringError::new("read", &e)),
        }
    }

    /// Whether a key is stored.
    pub fn is_stored(&self) -> Result<bool, KeyringError> {
        self.read().map(|key| key.is_some())
    }

    /// Removes the key; `false` when there was none.
    pub fn delete(&self) -> Result<bool, KeyringError> {
        match self.entry("delete")?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(KeyringError::new("delete", &e)),
        }
    }
}

impl KeySource for KeyringKey {
    fn api_key(&self) -> Option<Secret> {
        match self.read() {
            Ok(key) => key,
            Err(error) => {
                tracing::warn!("cannot read the API key: {error}");
                None
            }
        }
    }

    fn describe(&self) -> String {
        "the API key in Settings (stored in the system keychain)".into()
    }

    /// Read from the keychain for every request: a key fixed in Settings is the next request's.
    fn can_change(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Talks to the real credential store. `make test` runs the Rust tests inside a private
    /// D-Bus session with an unlocked gnome-keyring (scripts/with-keyring.sh), which sets
    /// `FOREMAN_KEYRING_TESTS`; a plain `cargo test` on a desktop skips this rather than
    /// writing into the developer's own keychain.
    #[test]
    fn keys_round_trip_through_the_system_keychain() {
        if std::env::var_os("FOREMAN_KEYRING_TESTS").is_none() {
            eprintln!("skipped: run under scripts/with-keyring.sh (make test does)");
            return;
        }
        let key = KeyringKey::new(format!("test-{}", std::process::id()));
        assert!(!key.is_stored().unwrap());
        assert!(key.store("   ").is_err(), "blank keys are refused");
        key.store("sk-test-123").unwrap();
        assert!(key.is_stored().unwrap());
        assert_eq!(key.api_key().unwrap().expose(), "sk-test-123");
        key.store("sk-test-456").unwrap();
        assert_eq!(key.read().unwrap().unwrap().expose(), "sk-test-456");
        assert!(key.delete().unwrap());
        assert!(!key.delete().unwrap());
        assert!(key.api_key().is_none());
        assert!(!format!("{key:?}").contains("sk-test"));
    }
}
