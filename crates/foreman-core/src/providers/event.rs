//! The one event type every provider streams.
//!
//! A provider turns a [`ProviderRequest`](super::ProviderRequest) into a stream of
//! `Result<ProviderEvent, ProviderError>`. Text and thinking arrive as deltas; a tool call arrives
//! as `ToolCallStart`, any number of `ToolCallArgsDelta` fragments (raw JSON text, for live display)
//! and a `ToolCallEnd` that carries the authoritative, fully parsed [`ToolArguments`]. A stream that
//! completes normally ends with exactly one `Stop`.

use std::time::Duration;

use serde_json::Value;
use thiserror::Error;

use super::usage::Usage;

/// One step of a provider's streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum ProviderEvent {
    /// Visible answer text.
    TextDelta(String),
    /// Reasoning text ("thinking"), shown separately and never sent back as an answer.
    ThinkingDelta(String),
    /// The signature that closes the current thinking block (Anthropic). The block must be sent
    /// back with it in the assistant turn when that turn called tools.
    ThinkingSignature(String),
    /// A redacted thinking block (Anthropic): encrypted reasoning, not shown; its `data` must be
    /// sent back unchanged in the assistant turn, like a signed block.
    RedactedThinking(String),
    /// A tool call begins. `id` is the provider's call id (or a generated one for the text protocol).
    ToolCallStart { id: String, name: String },
    /// A raw fragment of the call's JSON arguments, in arrival order.
    ToolCallArgsDelta { id: String, fragment: String },
    /// The call is complete; `arguments` says whether it may be executed.
    ToolCallEnd {
        id: String,
        arguments: ToolArguments,
    },
    /// Token usage of this request (reported once, near the end of the stream).
    Usage(Usage),
    /// The request failed in a retryable way and is tried again after `delay`.
    Retrying(RetryNotice),
    /// The model finished; always the last event of a successful stream.
    Stop { reason: StopReason },
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// The model finished its answer.
    EndTurn,
    /// The model wants its tool calls executed.
    ToolUse,
    /// The output limit (`max_tokens`) was reached.
    MaxTokens,
    /// A stop sequence was produced.
    StopSequence,
    /// The provider refused or filtered the answer.
    Refusal,
    /// Anything else the provider reported, verbatim.
    Other(String),
}

/// The final arguments of a tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolArguments {
    /// Valid JSON (a call without arguments yields `{}`).
    Parsed(Value),
    /// The output limit was reached before the JSON was complete. Never execute such a call.
    Truncated { raw: String },
    /// The JSON is invalid (or, for the text protocol, names an unknown tool).
    Invalid { raw: String, message: String },
}

/// Why a tool call's arguments cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ToolArgumentsError {
    #[error(
        "The tool call was cut off because the model reached its output limit; it was not run. \
         Raise max_tokens or ask for a smaller step."
    )]
    Truncated,
    #[error("InvalidParams: {0}")]
    InvalidParams(String),
}

impl ToolArguments {
    /// The parsed arguments, or the error to report back to the model instead of running the tool.
    pub fn into_result(self) -> Result<Value, ToolArgumentsError> {
        match self {
            Self::Parsed(value) => Ok(value),
            Self::Truncated { .. } => Err(ToolArgumentsError::Truncated),
            Self::Invalid { message, .. } => Err(ToolArgumentsError::InvalidParams(message)),
        }
    }

    /// True when the call was cut off by the output limit.
    pub fn is_truncated(&self) -> bool {
        matches!(self, Self::Truncated { .. })
    }
}

/// An announcement that a failed request is retried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryNotice {
    /// The attempt that is about to start (2 for the first retry).
    pub attempt: u32,
    /// The total number of attempts allowed.
    pub max_attempts: u32,
    /// How long we wait before it.
    pub delay: Duration,
    /// What went wrong (never contains a key).
    pub reason: String,
}

impl RetryNotice {
    /// A one-line message for the user, e.g. "Retrying in 4 s, attempt 2 of 5 (HTTP 529 overloaded)".
    pub fn message(&self) -> String {
        let delay = if self.delay >= Duration::from_secs(1) {
            format!("{} s", self.delay.as_secs_f64().round())
        } else {
            format!("{} ms", self.delay.as_millis())
        };
        format!(
            "Retrying in {delay}, attempt {} of {} ({})",
            self.attempt, self.max_attempts, self.reason
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn retry_notice_reads_like_the_spec() {
        let notice = RetryNotice {
            attempt: 2,
            max_attempts: 5,
            delay: Duration::from_secs(4),
            reason: "HTTP 529".into(),
        };
        assert_eq!(
            notice.message(),
            "Retrying in 4 s, attempt 2 of 5 (HTTP 529)"
        );
        let short = RetryNotice {
            delay: Duration::from_millis(20),
            ..notice
        };
        assert_eq!(
            short.message(),
            "Retrying in 20 ms, attempt 2 of 5 (HTTP 529)"
        );
    }

    #[test]
    fn truncated_and_invalid_arguments_are_errors() {
        assert_eq!(
            ToolArguments::Parsed(json!({"a": 1})).into_result(),
            Ok(json!({"a": 1}))
        );
        let truncated = ToolArguments::Truncated {
            raw: "{\"a\"".into(),
        };
        assert!(truncated.is_truncated());
        assert_eq!(truncated.into_result(), Err(ToolArgumentsError::Truncated));
        let invalid = ToolArguments::Invalid {
            raw: "{a}".into(),
            message: "bad".into(),
        };
        assert_eq!(
            invalid.into_result(),
            Err(ToolArgumentsError::InvalidParams("bad".into()))
        );
    }
}
