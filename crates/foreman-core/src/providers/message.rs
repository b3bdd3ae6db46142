//! The model-facing conversation: what both providers serialise to their wire formats.
//!
//! The system prompt is not a message; it travels in [`ProviderRequest::system`](super::ProviderRequest).
//! A conversation is a list of [`Message`]s: the user's text, the assistant's text with the tool
//! calls it made, and the results of those calls (matched by call id, flagged when they are errors).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::attachment::Attachment;

/// How the engine's note with the session's context starts (the date and the workspace's git
/// state, written when a new session takes its first message; `conversation::notes` knows the
/// other notes).
pub const SESSION_CONTEXT_NOTE_START: &str = "[Session context] ";

/// Whether `text`, a user message in the history, is the session-context note. The OpenAI
/// wire sends it in the system role at its place: servers of small local models put system
/// text where instructions go, and a base model that echoes the user's turn does not echo it.
pub fn is_session_context_note(text: &str) -> bool {
    text.starts_with(SESSION_CONTEXT_NOTE_START)
}

/// One turn (or part of a turn) of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// Text from the user (or from the engine speaking for them), with what it attaches.
    User {
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        attachments: Vec<Attachment>,
    },
    /// What the assistant said and which tools it called, in that order.
    Assistant {
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
        /// Thinking blocks to send back, signed or redacted, in the order they arrived (Anthropic
        /// requires them, unchanged, in a turn that called tools while extended thinking is on);
        /// other providers ignore them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        thinking: Vec<Thinking>,
    },
    /// The result of one tool call.
    ToolResult(ToolResult),
}

/// One thinking block to send back as it was received.
///
/// Serialised untagged: a signed block as `{"text", "signature"}` (the shape stored before
/// redacted blocks were kept), a redacted one as `{"data"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Thinking {
    /// Reasoning text with the provider's signature.
    Signed { text: String, signature: String },
    /// Reasoning the provider's safety systems encrypted (Anthropic's `redacted_thinking`):
    /// opaque `data`, never shown, returned verbatim.
    Redacted { data: String },
}

impl Thinking {
    /// The bytes this block adds to a request: its text and signature, or its data.
    pub fn bytes(&self) -> usize {
        match self {
            Self::Signed { text, signature } => text.len() + signature.len(),
            Self::Redacted { data } => data.len(),
        }
    }
}

/// A tool call the assistant made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments as a JSON object.
    pub arguments: Value,
}

/// What running a tool call produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The id of the [`ToolCall`] this answers.
    pub call_id: String,
    pub content: String,
    /// True when the tool failed (or was refused); the model sees it as an error.
    #[serde(default)]
    pub is_error: bool,
}

impl Message {
    /// The user's text.
    pub fn user(text: impl Into<String>) -> Self {
        Self::User {
            text: text.into(),
            attachments: Vec::new(),
        }
    }

    /// Assistant text without tool calls.
    pub fn assistant(text: impl Into<String>) -> Self {
        Self::assistant_with_calls(text, Vec::new())
    }

    /// Assistant text and tool calls, without thinking.
    pub fn assistant_with_calls(text: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        Self::Assistant {
            text: text.into(),
            tool_calls,
            thinking: Vec::new(),
        }
    }

    /// Takes the images out of a user message, leaving a note for each in their place (for a
    /// model or server that refused them); how many were taken out.
    pub fn drop_images(&mut self) -> usize {
        let Self::User { attachments, .. } = self else {
            return 0;
        };
        let mut dropped = 0;
        for attachment in attachments.iter_mut() {
            if let Attachment::Image { name, .. } = attachment {
                dropped += 1;
                *attachment = Attachment::Unavailable {
                    mention: name.clone().unwrap_or_else(|| "an image".to_owned()),
                    reason: "taken out after the model or server refused a request with images"
                        .to_owned(),
                };
            }
        }
        dropped
    }

    /// A tool result.
    pub fn tool_result(
        call_id: impl Into<String>,
        content: impl Into<String>,
        is_error: bool,
    ) -> Self {
        Self::ToolResult(ToolResult {
            call_id: call_id.into(),
            content: content.into(),
            is_error,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_round_trip_through_json() {
        let conversation = vec![
            Message::user("hi"),
            Message::Assistant {
                text: "reading".into(),
                tool_calls: vec![ToolCall {
                    id: "c1".into(),
                    name: "read_file".into(),
                    arguments: json!({"path": "a.txt"}),
                }],
                thinking: vec![
                    Thinking::Signed {
                        text: "hmm".into(),
                        signature: "sig".into(),
                    },
                    Thinking::Redacted {
                        data: "EmwKAhgBEgy3va3pzix".into(),
                    },
                ],
            },
            Message::tool_result("c1", "contents", false),
        ];
        let encoded = serde_json::to_value(&conversation).unwrap();
        assert_eq!(encoded[0], json!({"role": "user", "text": "hi"}));
        assert_eq!(encoded[2]["role"], "tool_result");
        assert_eq!(
            encoded[1]["thinking"],
            json!([{"text": "hmm", "signature": "sig"}, {"data": "EmwKAhgBEgy3va3pzix"}])
        );
        let decoded: Vec<Message> = serde_json::from_value(encoded).unwrap();
        assert_eq!(decoded, conversation);
    }
}
