//! Folding an event stream into a finished answer.
//!
//! [`Collected`] applies [`ProviderEvent`]s one by one (so a UI can keep it up to date while
//! streaming) and [`collect`] drains a whole stream. Whatever arrived before an error is kept.

use futures_util::StreamExt;

use super::error::ProviderError;
use super::event::{ProviderEvent, RetryNotice, StopReason, ToolArguments};
use super::message::{Message, Thinking, ToolCall};
use super::provider::EventStream;
use super::usage::Usage;

/// One tool call as assembled from the stream.
#[derive(Debug, Clone, PartialEq)]
pub struct CollectedCall {
    pub id: String,
    pub name: String,
    /// The raw argument fragments, concatenated.
    pub raw_arguments: String,
    /// Set by `ToolCallEnd`.
    pub arguments: Option<ToolArguments>,
}

/// Everything a stream produced so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collected {
    pub text: String,
    /// All thinking text, for display.
    pub thinking: String,
    /// Thinking blocks closed by a signature, and redacted blocks, in arrival order, to send back
    /// with the assistant turn.
    pub signed_thinking: Vec<Thinking>,
    /// Thinking text since the last signature.
    open_thinking: String,
    pub tool_calls: Vec<CollectedCall>,
    pub usage: Option<Usage>,
    pub stop: Option<StopReason>,
    pub retries: Vec<RetryNotice>,
}

impl Collected {
    /// Applies one event.
    pub fn apply(&mut self, event: &ProviderEvent) {
        match event {
            ProviderEvent::TextDelta(text) => self.text.push_str(text),
            ProviderEvent::ThinkingDelta(text) => {
                self.thinking.push_str(text);
                self.open_thinking.push_str(text);
            }
            ProviderEvent::ThinkingSignature(signature) => {
                self.signed_thinking.push(Thinking::Signed {
                    text: std::mem::take(&mut self.open_thinking),
                    signature: signature.clone(),
                })
            }
            ProviderEvent::RedactedThinking(data) => self
                .signed_thinking
                .push(Thinking::Redacted { data: data.clone() }),
            ProviderEvent::ToolCallStart { id, name } => self.tool_calls.push(CollectedCall {
                id: id.clone(),
                name: name.clone(),
                raw_arguments: String::new(),
                arguments: None,
            }),
            ProviderEvent::ToolCallArgsDelta { id, fragment } => {
                if let Some(call) = self.call_mut(id) {
                    call.raw_arguments.push_str(fragment);
                }
            }
            ProviderEvent::ToolCallEnd { id, arguments } => {
                if let Some(call) = self.call_mut(id) {
                    call.arguments = Some(arguments.clone());
                }
            }
            ProviderEvent::Usage(usage) => self.usage = Some(*usage),
            ProviderEvent::Retrying(notice) => self.retries.push(notice.clone()),
            ProviderEvent::Stop { reason } => self.stop = Some(reason.clone()),
        }
    }

    fn call_mut(&mut self, id: &str) -> Option<&mut CollectedCall> {
        self.tool_calls.iter_mut().rev().find(|call| call.id == id)
    }

    /// The assistant message to append to the conversation, with its signed thinking. Calls
    /// whose arguments are not usable (truncated, invalid, unfinished) carry `{}`; the caller
    /// answers them with an error result.
    pub fn assistant_message(&self) -> Message {
        Message::Assistant {
            text: self.text.clone(),
            thinking: self.signed_thinking.clone(),
            tool_calls: self
                .tool_calls
                .iter()
                .map(|call| ToolCall {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    arguments: match &call.arguments {
                        Some(ToolArguments::Parsed(value)) => value.clone(),
                        _ => serde_json::Value::Object(serde_json::Map::new()),
                    },
                })
                .collect(),
        }
    }
}

/// Drains a stream; returns what arrived and the error it ended with, if any.
pub async fn collect(mut stream: EventStream) -> (Collected, Option<ProviderError>) {
    let mut collected = Collected::default();
    while let Some(item) = stream.next().await {
        match item {
            Ok(event) => collected.apply(&event),
            Err(error) => return (collected, Some(error)),
        }
    }
    (collected, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn assembles_calls_and_keeps_unusable_ones_with_empty_arguments() {
        let mut collected = Collected::default();
        for event in [
            ProviderEvent::ThinkingDelta("first ".into()),
            ProviderEvent::ThinkingDelta("idea".into()),
            ProviderEvent::ThinkingSignature("sig".into()),
            ProviderEvent::TextDelta("Let me ".into()),
            ProviderEvent::TextDelta("look.".into()),
            ProviderEvent::ToolCallStart {
                id: "a".into(),
                name: "ls".into(),
            },
            ProviderEvent::ToolCallArgsDelta {
                id: "a".into(),
                fragment: "{\"p\":".into(),
            },
            ProviderEvent::ToolCallArgsDelta {
                id: "a".into(),
                fragment: "1}".into(),
            },
            ProviderEvent::ToolCallEnd {
                id: "a".into(),
                arguments: ToolArguments::Parsed(json!({"p": 1})),
            },
            ProviderEvent::ToolCallStart {
                id: "b".into(),
                name: "write".into(),
            },
            ProviderEvent::ToolCallEnd {
                id: "b".into(),
                arguments: ToolArguments::Truncated { raw: "{".into() },
            },
            ProviderEvent::Stop {
                reason: StopReason::MaxTokens,
            },
        ] {
            collected.apply(&event);
        }
        assert_eq!(collected.text, "Let me look.");
        assert_eq!(collected.tool_calls[0].raw_arguments, "{\"p\":1}");
        let Message::Assistant {
            tool_calls,
            thinking,
            ..
        } = collected.assistant_message()
        else {
            panic!("assistant message expected");
        };
        assert_eq!(
            thinking,
            vec![Thinking::Signed {
                text: "first idea".into(),
                signature: "sig".into()
            }]
        );
        assert_eq!(collected.thinking, "first idea");
        assert_eq!(tool_calls[0].arguments, json!({"p": 1}));
        assert_eq!(tool_calls[1].arguments, json!({}));
        assert_eq!(collected.stop, Some(StopReason::MaxTokens));
    }
}
