//! The typed errors a provider stream can end with.
//!
//! Every message is written for the user supervising the agent and never contains an API key
//! (server bodies are scrubbed by [`redact`](super::redact) before they land here).

use std::time::Duration;

use thiserror::Error;

/// Why a provider request failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProviderError {
    /// 401/403: the key is missing, wrong or lacks permission. Never retried automatically.
    #[error(
        "{provider} rejected the API key (HTTP {status}): {}. Check {hint}.",
        message.trim_end_matches('.')
    )]
    Auth {
        provider: String,
        status: u16,
        message: String,
        /// Where the key is set ([`KeySource::describe`](super::KeySource::describe)).
        hint: String,
        /// Whether the user can fix the key while the program runs
        /// ([`KeySource::can_change`](super::KeySource::can_change)).
        key_can_change: bool,
    },
    /// No key is configured where one is required.
    #[error("No API key for {provider}. Set {hint}.")]
    MissingKey {
        provider: String,
        hint: String,
        /// Whether the user can set it while the program runs, as for [`Self::Auth`].
        key_can_change: bool,
    },
    /// The conversation does not fit the model's context window.
    #[error("The conversation is too long for the model's context window: {message}")]
    ContextLength { message: String },
    /// A rejected request that retrying will not fix (400, 404, 422...).
    #[error("{provider} rejected the request (HTTP {status}): {message}")]
    InvalidRequest {
        provider: String,
        status: u16,
        message: String,
    },
    /// A retryable HTTP status (429, 5xx, 529) that persisted through every attempt.
    #[error("{provider} is unavailable (HTTP {status}) after {attempts} attempts: {message}")]
    Unavailable {
        provider: String,
        status: u16,
        attempts: u32,
        message: String,
    },
    /// The server could not be reached (refused, reset before the first byte, DNS...).
    #[error("Cannot reach {provider} after {attempts} attempts: {message}")]
    Connect {
        provider: String,
        attempts: u32,
        message: String,
    },
    /// Connecting took longer than the connect timeout.
    #[error("Connecting to {provider} timed out after {timeout:?}")]
    ConnectTimeout { provider: String, timeout: Duration },
    /// No byte arrived for the idle timeout.
    #[error(
        "{provider} sent nothing for {timeout:?}; the request was abandoned. \
         What already arrived is kept; you can retry."
    )]
    IdleTimeout { provider: String, timeout: Duration },
    /// The connection dropped after output had started. Everything already yielded stays valid.
    #[error(
        "The connection to {provider} dropped in the middle of the answer ({message}). \
         What already arrived is kept; you can retry."
    )]
    StreamInterrupted { provider: String, message: String },
    /// The provider reported an error inside the stream (e.g. Anthropic `overloaded_error`).
    #[error("{provider} reported an error: {kind}: {message}")]
    Api {
        provider: String,
        kind: String,
        message: String,
    },
    /// The stream was not in the format we expect.
    #[error("Unexpected data from {provider}: {message}")]
    Protocol { provider: String, message: String },
    /// Reading or writing a recording failed.
    #[error("Recording {path}: {message}")]
    Recording { path: String, message: String },
    /// The provider settings cannot work (a key or header that cannot be sent, HTTP setup).
    #[error("The {provider} settings are not usable: {message}")]
    Config { provider: String, message: String },
    /// The request was cancelled.
    #[error("Cancelled")]
    Cancelled,
}

impl ProviderError {
    /// True for errors where sending the same request again may succeed (only used before any
    /// output was yielded).
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Unavailable { .. } | Self::Connect { .. } | Self::ConnectTimeout { .. } => true,
            Self::Api { kind, .. } => {
                matches!(
                    kind.as_str(),
                    "overloaded_error" | "rate_limit_error" | "api_error"
                )
            }
            _ => false,
        }
    }
}

/// The error code (OpenAI, Groq, and servers copying them) of a prompt too long for the model.
pub(crate) const CONTEXT_LENGTH_EXCEEDED: &str = "context_length_exceeded";

/// The kinds of in-stream errors that reject the request itself: sent again, it meets the same
/// answer.
const REJECTED_REQUEST_KINDS: [&str; 5] = [
    "invalid_request_error",
    "not_found_error",
    "request_too_large",
    CONTEXT_LENGTH_EXCEEDED,
    "invalid_request",
];

impl ProviderError {
    /// True when the user may sensibly ask for the request again after the task ended with
    /// this error: the server or the connection failed, or the key did and can be fixed while
    /// the program runs (the keychain is read again for every request, so a key fixed in the
    /// settings is used by the retry; an environment variable cannot change). Not for a request
    /// the provider rejected as such (400, 404, an invalid request or one too long for the
    /// model), nor for settings that cannot work, which a new attempt would meet the same way.
    pub fn user_may_retry(&self) -> bool {
        match self {
            Self::Auth { key_can_change, .. } | Self::MissingKey { key_can_change, .. } => {
                *key_can_change
            }
            Self::InvalidRequest { .. }
            | Self::ContextLength { .. }
            | Self::Config { .. }
            | Self::Recording { .. }
            | Self::Cancelled => false,
            Self::Api { kind, message, .. } => {
                !REJECTED_REQUEST_KINDS.contains(&kind.as_str())
                    && !is_context_length_message(message)
            }
            _ => true,
        }
    }
}

/// Whether an error body from a provider says the prompt is too long for the context window.
pub(crate) fn is_context_length_message(message: &str) -> bool {
    let lowered = message.to_lowercase();
    [
        "context_length_exceeded",
        "context length",
        "context window",
        "prompt is too long",
        "maximum context",
        "too many tokens",
        "input is too long",
        // llama.cpp: "the request exceeds the available context size".
        "context size",
        // Groq: "Please reduce the length of the messages or completion."
        "reduce the length of the messages",
    ]
    .iter()
    .any(|needle| lowered.contains(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_is_offered_unless_the_request_itself_was_rejected() {
        let api = |kind: &str, message: &str| ProviderError::Api {
            provider: "OpenAI".into(),
            kind: kind.into(),
            message: message.into(),
        };
        assert!(api("overloaded_error", "Overloaded").user_may_retry());
        assert!(api("server_error", "The server had an error").user_may_retry());
        assert!(api("insufficient_quota", "You exceeded your quota").user_may_retry());
        assert!(!api("invalid_request_error", "messages: bad role").user_may_retry());
        assert!(!api("error", "This model's maximum context length is 8192").user_may_retry());
        let dropped = ProviderError::StreamInterrupted {
            provider: "Anthropic".into(),
            message: "reset".into(),
        };
        assert!(dropped.user_may_retry());
        let rejected = ProviderError::InvalidRequest {
            provider: "Anthropic".into(),
            status: 400,
            message: "bad".into(),
        };
        assert!(!rejected.user_may_retry());
        // The keychain is read again for every request: fixed in the settings, the key is the
        // retry's. An environment variable cannot change while the program runs.
        let auth = |key_can_change| ProviderError::Auth {
            provider: "Anthropic".into(),
            status: 401,
            message: "invalid x-api-key".into(),
            hint: "the API key in Settings".into(),
            key_can_change,
        };
        assert!(auth(true).user_may_retry());
        assert!(!auth(false).user_may_retry());
        let missing = |key_can_change| ProviderError::MissingKey {
            provider: "Anthropic".into(),
            hint: "the ANTHROPIC_API_KEY environment variable".into(),
            key_can_change,
        };
        assert!(missing(true).user_may_retry());
        assert!(!missing(false).user_may_retry());
    }

    #[test]
    fn auth_error_points_to_the_key_setting() {
        let err = ProviderError::Auth {
            provider: "Anthropic".into(),
            status: 401,
            message: "invalid x-api-key.".into(),
            hint: "the ANTHROPIC_API_KEY environment variable".into(),
            key_can_change: false,
        };
        assert_eq!(
            err.to_string(),
            "Anthropic rejected the API key (HTTP 401): invalid x-api-key. \
             Check the ANTHROPIC_API_KEY environment variable."
        );
        assert!(!err.is_retryable());
    }

    #[test]
    fn recognises_context_length_messages() {
        assert!(is_context_length_message(
            "prompt is too long: 210000 tokens > 200000 maximum"
        ));
        assert!(is_context_length_message(
            "This model's maximum context length is 128000 tokens (context_length_exceeded)"
        ));
        assert!(!is_context_length_message("max_tokens: must be positive"));
    }
}
