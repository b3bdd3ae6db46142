//! The Anthropic Messages API provider (native tool calling).
//!
//! POSTs to `{base_url}/v1/messages` (base URL as the official SDKs take it:
//! `https://api.anthropic.com`) with `x-api-key` and `anthropic-version`, `stream: true`.
//! With prompt caching on (the default), `cache_control` breakpoints mark the end of the system
//! prompt, of the tool list and of the last two user turns of the conversation (four, the API's
//! limit). The newest turn's breakpoint writes the conversation so far to the cache; on the next
//! request the same turn is the older breakpoint, sent byte for byte as before, so everything up
//! to it is read from the cache at a tenth of the input price.
//! The stream is decoded by [`AnthropicDecoder`](super::anthropic_decoder::AnthropicDecoder).

use reqwest::header::HeaderMap;
use serde_json::{Value, json};

use super::api::{Api, header_value};
use super::attachment::Attachment;
use super::error::ProviderError;
use super::format::WireFormat;
use super::http::HttpSettings;
use super::http_provider::HttpProvider;
use super::keys::SharedKeySource;
use super::message::{Message, Thinking};
use super::request::ProviderRequest;
use crate::secrets::Secret;

const NAME: &str = "Anthropic";

/// Settings of the Anthropic provider.
#[derive(Debug, Clone)]
pub struct AnthropicConfig {
    /// `https://api.anthropic.com`; the client appends `/v1/messages`.
    pub base_url: String,
    /// The `anthropic-version` header.
    pub api_version: String,
    pub key: SharedKeySource,
    pub http: HttpSettings,
    /// Adds `cache_control` breakpoints to the system prompt, the tool list and the conversation.
    pub prompt_caching: bool,
    /// Refuse to send a request without a key (the hosted API needs one; a server on this
    /// computer speaking its format, a proxy say, may not).
    pub key_required: bool,
}

impl AnthropicConfig {
    pub const DEFAULT_BASE_URL: &str = foreman_protocol::settings::ANTHROPIC_BASE_URL;
    pub const API_VERSION: &str = "2023-06-01";

    /// The official endpoint with this key source.
    pub fn new(key: SharedKeySource) -> Self {
        Self {
            base_url: Self::DEFAULT_BASE_URL.to_string(),
            api_version: Self::API_VERSION.to_string(),
            key,
            http: HttpSettings::default(),
            prompt_caching: true,
            key_required: true,
        }
    }

    /// The same settings with another base URL.
    pub fn with_base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = base_url.into();
        self
    }

    /// The same settings with other network settings.
    pub fn with_http(mut self, http: HttpSettings) -> Self {
        self.http = http;
        self
    }
}

/// Talks to the Anthropic Messages API.
pub type AnthropicProvider = HttpProvider<AnthropicConfig>;

fn ephemeral() -> Value {
    json!({"type": "ephemeral"})
}

/// Appends a content block to the conversation, merging consecutive blocks of the same role.
fn push_block(messages: &mut Vec<Value>, role: &str, block: Value) {
    if let Some(last) = messages.last_mut()
        && last["role"] == role
        && let Some(content) = last["content"].as_array_mut()
    {
        content.push(block);
        return;
    }
    messages.push(json!({"role": role, "content": [block]}));
}

/// An attachment as a content block: its text, or the image.
fn attachment_block(attachment: &Attachment) -> Value {
    match attachment {
        Attachment::Image {
            media_type, data, ..
        } => json!({
            "type": "image",
            "source": {"type": "base64", "media_type": media_type, "data": data},
        }),
        other => json!({"type": "text", "text": other.model_text().unwrap_or_default()}),
    }
}

/// The conversation in the Messages API shape.
pub fn wire_messages(messages: &[Message]) -> Vec<Value> {
    let mut out = Vec::new();
    for message in messages {
        match message {
            Message::User { text, attachments } => {
                if !text.is_empty() || attachments.is_empty() {
                    push_block(&mut out, "user", json!({"type": "text", "text": text}));
                }
                for attachment in attachments {
                    push_block(&mut out, "user", attachment_block(attachment));
                }
            }
            Message::Assistant {
                text,
                tool_calls,
                thinking,
            } => {
                for block in thinking {
                    let block = match block {
                        Thinking::Signed { text, signature } => {
                            json!({"type": "thinking", "thinking": text, "signature": signature})
                        }
                        Thinking::Redacted { data } => {
                            json!({"type": "redacted_thinking", "data": data})
                        }
                    };
                    push_block(&mut out, "assistant", block);
                }
                if !text.is_empty() {
                    push_block(&mut out, "assistant", json!({"type": "text", "text": text}));
                }
                for call in tool_calls {
                    push_block(
                        &mut out,
                        "assistant",
                        json!({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}),
                    );
                }
            }
            Message::ToolResult(result) => push_block(
                &mut out,
                "user",
                json!({
                    "type": "tool_result",
                    "tool_use_id": result.call_id,
                    "content": result.content,
                    "is_error": result.is_error,
                }),
            ),
        }
    }
    out
}

/// How many user turns of the conversation carry a cache breakpoint: the newest, and the one the
/// previous request ended with.
pub const CONVERSATION_BREAKPOINTS: usize = 2;

/// Marks the last block of the last [`CONVERSATION_BREAKPOINTS`] user turns as cache breakpoints.
///
/// User turns, not any turn: a request always ends with one, so the newest breakpoint of this
/// request is the older breakpoint of the next, unchanged.
fn mark_conversation(messages: &mut [Value]) {
    let users = messages
        .iter_mut()
        .rev()
        .filter(|m| m["role"] == "user")
        .take(CONVERSATION_BREAKPOINTS);
    for message in users {
        if let Some(last) = message["content"]
            .as_array_mut()
            .and_then(|blocks| blocks.last_mut())
        {
            last["cache_control"] = ephemeral();
        }
    }
}

/// The JSON body of a streaming Messages request.
pub fn request_body(request: &ProviderRequest, prompt_caching: bool) -> Value {
    let mut messages = wire_messages(&request.messages);
    if prompt_caching {
        mark_conversation(&mut messages);
    }
    let mut body = json!({
        "model": request.model,
        "max_tokens": request.limits.max_tokens,
        "stream": true,
        "messages": messages,
    });
    if !request.system.is_empty() {
        let mut block = json!({"type": "text", "text": request.system});
        if prompt_caching {
            block["cache_control"] = ephemeral();
        }
        body["system"] = json!([block]);
    }
    if !request.tools.is_empty() {
        let mut tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({"name": tool.name, "description": tool.description, "input_schema": tool.input_schema})
            })
            .collect();
        if prompt_caching && let Some(last) = tools.last_mut() {
            last["cache_control"] = ephemeral();
        }
        body["tools"] = Value::Array(tools);
    }
    if let Some(budget) = request.limits.thinking_budget {
        body["thinking"] = json!({"type": "enabled", "budget_tokens": budget});
    } else if let Some(temperature) = request.limits.temperature {
        body["temperature"] = json!(temperature);
    }
    body
}

impl Api for AnthropicConfig {
    const NAME: &'static str = NAME;
    const FORMAT: WireFormat = WireFormat::Anthropic;

    fn endpoint(&self) -> String {
        format!("{}/v1/messages", self.base_url.trim_end_matches('/'))
    }

    fn key(&self) -> &SharedKeySource {
        &self.key
    }

    fn requires_key(&self) -> bool {
        self.key_required
    }

    fn http(&self) -> &HttpSettings {
        &self.http
    }

    fn add_headers(
        &self,
        key: Option<&Secret>,
        headers: &mut HeaderMap,
    ) -> Result<(), ProviderError> {
        if let Some(key) = key {
            let mut value = header_value(NAME, key.expose(), "API key")?;
            value.set_sensitive(true);
            headers.insert("x-api-key", value);
        }
        headers.insert(
            "anthropic-version",
            header_value(NAME, &self.api_version, "API version")?,
        );
        Ok(())
    }

    fn body(&self, request: &ProviderRequest) -> Value {
        request_body(request, self.prompt_caching)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::message::{Thinking, ToolCall};
    use crate::providers::request::{Limits, ToolDefinition};

    fn tool(name: &str) -> ToolDefinition {
        ToolDefinition {
            name: name.into(),
            description: format!("{name} things"),
            input_schema: json!({"type": "object", "properties": {}}),
        }
    }

    #[test]
    fn body_has_cache_breakpoints_on_system_and_last_tool() {
        let request = ProviderRequest::new(
            "claude-sonnet-4",
            "You are careful.",
            vec![Message::user("hi")],
        )
        .with_tools(vec![tool("read_file"), tool("write_file")]);
        let body = request_body(&request, true);
        assert_eq!(body["stream"], true);
        assert_eq!(
            body["system"][0]["cache_control"],
            json!({"type": "ephemeral"})
        );
        assert!(body["tools"][0].get("cache_control").is_none());
        assert_eq!(
            body["tools"][1]["cache_control"],
            json!({"type": "ephemeral"})
        );
        assert_eq!(body["tools"][1]["input_schema"]["type"], "object");
        let plain = request_body(&request, false);
        assert!(plain["system"][0].get("cache_control").is_none());
        assert!(plain["tools"][1].get("cache_control").is_none());
    }

    /// Every `cache_control` in a body, as (where, index) pairs.
    fn breakpoints(body: &Value) -> Vec<String> {
        let mut out = Vec::new();
        if body["system"][0].get("cache_control").is_some() {
            out.push("system".to_owned());
        }
        for (i, tool) in body["tools"].as_array().into_iter().flatten().enumerate() {
            if tool.get("cache_control").is_some() {
                out.push(format!("tool {i}"));
            }
        }
        for (i, message) in body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            for (j, block) in message["content"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                if block.get("cache_control").is_some() {
                    out.push(format!("message {i} block {j}"));
                }
            }
        }
        out
    }

    #[test]
    fn the_last_two_user_turns_carry_breakpoints_and_never_more_than_four_in_all() {
        let call = |id: &str| ToolCall {
            id: id.into(),
            name: "read".into(),
            arguments: json!({"path": "a"}),
        };
        let mut history = vec![Message::user("fix it")];
        for i in 0..3 {
            let id = format!("t{i}");
            history.push(Message::assistant_with_calls("", vec![call(&id)]));
            history.push(Message::tool_result(&id, "text", false));
        }
        let request = ProviderRequest::new("claude-sonnet-4", "sys", history.clone())
            .with_tools(vec![tool("read")]);
        let body = request_body(&request, true);
        assert_eq!(
            breakpoints(&body),
            ["system", "tool 0", "message 4 block 0", "message 6 block 0"]
        );
        assert_eq!(body["messages"][6]["content"][0]["type"], "tool_result");
        assert!(breakpoints(&request_body(&request, false)).is_empty());

        // A first message alone: one conversation breakpoint.
        let first = ProviderRequest::new("m", "", vec![Message::user("hi")]);
        assert_eq!(
            breakpoints(&request_body(&first, true)),
            ["message 0 block 0"]
        );
    }

    #[test]
    fn conversation_groups_tool_results_into_one_user_turn() {
        let messages = vec![
            Message::user("list and read"),
            Message::Assistant {
                text: "Sure.".into(),
                thinking: vec![Thinking::Signed {
                    text: "plan".into(),
                    signature: "sig-1".into(),
                }],
                tool_calls: vec![
                    ToolCall {
                        id: "t1".into(),
                        name: "ls".into(),
                        arguments: json!({}),
                    },
                    ToolCall {
                        id: "t2".into(),
                        name: "cat".into(),
                        arguments: json!({"p": "a"}),
                    },
                ],
            },
            Message::tool_result("t1", "a b", false),
            Message::tool_result("t2", "no such file", true),
            Message::user("thanks"),
        ];
        let wire = wire_messages(&messages);
        assert_eq!(wire.len(), 3);
        assert_eq!(
            wire[1]["content"][0],
            json!({"type": "thinking", "thinking": "plan", "signature": "sig-1"})
        );
        assert_eq!(
            wire[1]["content"][2],
            json!({"type": "tool_use", "id": "t1", "name": "ls", "input": {}})
        );
        assert_eq!(wire[2]["role"], "user");
        assert_eq!(
            wire[2]["content"][1],
            json!({"type": "tool_result", "tool_use_id": "t2", "content": "no such file", "is_error": true})
        );
        assert_eq!(
            wire[2]["content"][2],
            json!({"type": "text", "text": "thanks"})
        );
    }

    #[test]
    fn thinking_budget_and_limits() {
        let request = ProviderRequest::new("claude-opus-4", "", vec![Message::user("x")])
            .with_limits(Limits {
                max_tokens: 1000,
                temperature: Some(0.5),
                thinking_budget: Some(512),
                ..Limits::default()
            });
        let body = request_body(&request, true);
        assert_eq!(body["max_tokens"], 1000);
        assert_eq!(
            body["thinking"],
            json!({"type": "enabled", "budget_tokens": 512})
        );
        assert!(body.get("temperature").is_none());
        assert!(body.get("system").is_none());
        assert!(body.get("tools").is_none());
    }

    #[test]
    fn endpoint_appends_the_messages_path() {
        let provider = AnthropicProvider::new(
            AnthropicConfig::new(crate::providers::keys::no_key())
                .with_base_url("http://127.0.0.1:9/"),
        )
        .unwrap();
        assert_eq!(provider.endpoint(), "http://127.0.0.1:9/v1/messages");
    }
}
