//! The OpenAI Chat Completions provider, also for compatible servers.
//!
//! Base URL like `https://api.openai.com/v1`, `https://openrouter.ai/api/v1` or
//! `http://localhost:11434/v1` (Ollama); the client appends `/chat/completions`. The key is
//! optional (local servers need none) and sent as `Authorization: Bearer`. Requests stream with
//! `stream_options.include_usage` so the final chunk carries token usage.
//! The stream is decoded by [`OpenAiDecoder`](super::openai_decoder::OpenAiDecoder).

use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};

use super::api::{Api, header_value};
use super::attachment::Attachment;
use super::error::ProviderError;
use super::format::WireFormat;
use super::http::HttpSettings;
use super::http_provider::HttpProvider;
use super::keys::SharedKeySource;
use super::message::{Message, is_session_context_note};
use super::request::ProviderRequest;
use crate::secrets::Secret;

const NAME: &str = "OpenAI-compatible server";

/// Which field carries the output limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaxTokensField {
    /// `max_tokens`: understood by every compatible server.
    MaxTokens,
    /// `max_completion_tokens`: required by OpenAI's reasoning models.
    MaxCompletionTokens,
}

/// Settings of an OpenAI-compatible provider.
#[derive(Debug, Clone)]
pub struct OpenAiConfig {
    /// E.g. `https://api.openai.com/v1`; the client appends `/chat/completions`.
    pub base_url: String,
    /// Optional: without a key no Authorization header is sent.
    pub key: SharedKeySource,
    pub http: HttpSettings,
    pub max_tokens_field: MaxTokensField,
    /// Extra headers (e.g. OpenRouter's `HTTP-Referer`, `X-Title`). Not for credentials.
    pub extra_headers: Vec<(String, String)>,
}

impl OpenAiConfig {
    pub const DEFAULT_BASE_URL: &str = foreman_protocol::settings::OPENAI_BASE_URL;
    pub const OPENROUTER_BASE_URL: &str = foreman_protocol::settings::OPENROUTER_BASE_URL;
    pub const OLLAMA_BASE_URL: &str = foreman_protocol::settings::OLLAMA_BASE_URL;

    pub fn new(base_url: impl Into<String>, key: SharedKeySource) -> Self {
        Self {
            base_url: base_url.into(),
            key,
            http: HttpSettings::default(),
            max_tokens_field: MaxTokensField::MaxTokens,
            extra_headers: Vec::new(),
        }
    }

    /// The same settings with other network settings.
    pub fn with_http(mut self, http: HttpSettings) -> Self {
        self.http = http;
        self
    }
}

/// Talks to `/chat/completions`.
pub type OpenAiProvider = HttpProvider<OpenAiConfig>;

/// A user message's content: a string (what every compatible server takes) unless it carries
/// images, then text and image parts.
fn user_content(text: &str, attachments: &[Attachment]) -> Value {
    if !attachments.iter().any(Attachment::is_image) {
        let mut content = text.to_owned();
        for attached in attachments.iter().filter_map(Attachment::model_text) {
            content.push_str("\n\n");
            content.push_str(&attached);
        }
        return json!(content);
    }
    let mut parts = Vec::new();
    if !text.is_empty() {
        parts.push(json!({"type": "text", "text": text}));
    }
    for attachment in attachments {
        parts.push(match attachment {
            Attachment::Image {
                media_type, data, ..
            } => json!({
                "type": "image_url",
                "image_url": {"url": format!("data:{media_type};base64,{data}")},
            }),
            other => json!({"type": "text", "text": other.model_text().unwrap_or_default()}),
        });
    }
    Value::Array(parts)
}

/// The conversation as Chat Completions messages (the system prompt first). The
/// session-context note keeps its place but goes in the system role: the prefix before it (the
/// system prompt and the tools) stays byte-stable for the cache, and a small model that echoes
/// the user's turn does not repeat it.
pub fn wire_messages(system: &str, messages: &[Message]) -> Vec<Value> {
    let mut out = Vec::new();
    if !system.is_empty() {
        out.push(json!({"role": "system", "content": system}));
    }
    for message in messages {
        out.push(match message {
            Message::User { text, attachments }
                if attachments.is_empty() && is_session_context_note(text) =>
            {
                json!({"role": "system", "content": text})
            }
            Message::User { text, attachments } => {
                json!({"role": "user", "content": user_content(text, attachments)})
            }
            Message::Assistant {
                text, tool_calls, ..
            } => {
                let mut turn = json!({
                    "role": "assistant",
                    "content": if text.is_empty() { Value::Null } else { json!(text) },
                });
                if !tool_calls.is_empty() {
                    turn["tool_calls"] = tool_calls
                        .iter()
                        .map(|call| {
                            json!({
                                "id": call.id,
                                "type": "function",
                                "function": {"name": call.name, "arguments": call.arguments.to_string()},
                            })
                        })
                        .collect();
                }
                turn
            }
            Message::ToolResult(result) => json!({
                "role": "tool",
                "tool_call_id": result.call_id,
                "content": if result.is_error {
                    format!("Error: {}", result.content)
                } else {
                    result.content.clone()
                },
            }),
        });
    }
    out
}

/// The JSON body of a streaming Chat Completions request. With a reasoning effort the output
/// limit goes in `max_completion_tokens` whatever `max_tokens_field` says: only reasoning models
/// take an effort, and OpenAI's refuse `max_tokens`.
pub fn request_body(request: &ProviderRequest, max_tokens_field: MaxTokensField) -> Value {
    let mut body = json!({
        "model": request.model,
        "messages": wire_messages(&request.system, &request.messages),
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    let field = match (max_tokens_field, request.limits.reasoning_effort) {
        (MaxTokensField::MaxTokens, None) => "max_tokens",
        _ => "max_completion_tokens",
    };
    body[field] = json!(request.limits.max_tokens);
    if let Some(effort) = request.limits.reasoning_effort {
        body["reasoning_effort"] = json!(effort.as_str());
    }
    if let Some(temperature) = request.limits.temperature {
        body["temperature"] = json!(temperature);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.input_schema,
                    },
                })
            })
            .collect();
    }
    body
}

fn invalid(message: String) -> ProviderError {
    ProviderError::Config {
        provider: NAME.to_string(),
        message,
    }
}

impl Api for OpenAiConfig {
    const NAME: &'static str = NAME;
    const FORMAT: WireFormat = WireFormat::OpenAi;

    fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base_url.trim_end_matches('/'))
    }

    fn key(&self) -> &SharedKeySource {
        &self.key
    }

    /// Optional: local servers need none, and without one no Authorization header is sent.
    fn requires_key(&self) -> bool {
        false
    }

    fn http(&self) -> &HttpSettings {
        &self.http
    }

    fn add_headers(
        &self,
        key: Option<&Secret>,
        headers: &mut HeaderMap,
    ) -> Result<(), ProviderError> {
        for (name, value) in &self.extra_headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| invalid(format!("`{name}` is not a valid header name")))?;
            let value = HeaderValue::from_str(value)
                .map_err(|_| invalid(format!("the value of header `{name}` is not valid")))?;
            headers.insert(name, value);
        }
        if let Some(key) = key {
            let mut value = header_value(NAME, &format!("Bearer {}", key.expose()), "API key")?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        Ok(())
    }

    fn body(&self, request: &ProviderRequest) -> Value {
        request_body(request, self.max_tokens_field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::message::ToolCall;
    use crate::providers::request::ToolDefinition;

    #[test]
    fn body_streams_with_usage_and_function_tools() {
        let request = ProviderRequest::new("gpt-4o", "Be brief.", vec![Message::user("hi")])
            .with_tools(vec![ToolDefinition {
                name: "ls".into(),
                description: "list".into(),
                input_schema: json!({"type": "object"}),
            }]);
        let body = request_body(&request, MaxTokensField::MaxTokens);
        assert_eq!(body["stream_options"], json!({"include_usage": true}));
        assert_eq!(
            body["messages"][0],
            json!({"role": "system", "content": "Be brief."})
        );
        assert_eq!(
            body["tools"][0]["function"]["parameters"],
            json!({"type": "object"})
        );
        assert_eq!(body["max_tokens"], 8192);
        let reasoning = request_body(&request, MaxTokensField::MaxCompletionTokens);
        assert_eq!(reasoning["max_completion_tokens"], 8192);
        assert!(reasoning.get("max_tokens").is_none());
    }

    #[test]
    fn a_reasoning_effort_is_sent_with_the_completion_limit_and_thinking_is_not() {
        use crate::providers::request::{Limits, ReasoningEffort};
        let request =
            ProviderRequest::new("o3", "", vec![Message::user("hi")]).with_limits(Limits {
                reasoning_effort: Some(ReasoningEffort::Low),
                thinking_budget: Some(2_048),
                ..Limits::default()
            });
        let body = request_body(&request, MaxTokensField::MaxTokens);
        assert_eq!(body["reasoning_effort"], "low");
        assert_eq!(body["max_completion_tokens"], 8192);
        assert!(body.get("max_tokens").is_none());
        assert!(body.get("thinking").is_none());
        let plain = request_body(
            &ProviderRequest::new("gpt-4o", "", vec![Message::user("hi")]),
            MaxTokensField::MaxTokens,
        );
        assert!(plain.get("reasoning_effort").is_none());
    }

    #[test]
    fn assistant_calls_and_tool_results_use_chat_shapes() {
        let wire = wire_messages(
            "",
            &[
                Message::assistant_with_calls(
                    "",
                    vec![ToolCall {
                        id: "c1".into(),
                        name: "ls".into(),
                        arguments: json!({"p": "."}),
                    }],
                ),
                Message::tool_result("c1", "denied", true),
            ],
        );
        assert_eq!(wire[0]["content"], Value::Null);
        assert_eq!(
            wire[0]["tool_calls"][0]["function"]["arguments"],
            "{\"p\":\".\"}"
        );
        assert_eq!(
            wire[1],
            json!({"role": "tool", "tool_call_id": "c1", "content": "Error: denied"})
        );
    }
}
