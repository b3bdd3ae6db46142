//! Tool calling for models without native tools: the text protocol.
//!
//! [`TextProtocolProvider`] wraps any provider. It sends no tool definitions; instead the system
//! prompt carries the Markdown tool catalogue and asks the model to answer with exactly one JSON
//! object `{"action": "<tool>", ...params}` to use a tool, or plain text for a direct answer.
//! Past tool calls and results are written into the conversation as text in the same protocol.
//! The answer is streamed through the `text_stream` state machine so a call shows up as a
//! partial call (`ToolCallStart`, `ToolCallArgsDelta`) like a native one, and is extracted at the
//! end with [`extract_call`](super::text_extract::extract_call). An unknown action ends as
//! [`ToolArguments::Invalid`](super::ToolArguments::Invalid) whose message lists the available tools.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use futures_util::StreamExt;
use tokio_util::sync::CancellationToken;

use super::error::ProviderError;
use super::event::{ProviderEvent, StopReason};
use super::message::Message;
use super::provider::{EventStream, Provider};
use super::request::ProviderRequest;
use super::text_stream::TextCallStreamer;

/// The instructions appended to the system prompt, before the catalogue.
pub const PROTOCOL_INSTRUCTIONS: &str = "\
# Using tools

You can use the tools listed below. To use a tool, reply with exactly one JSON object and nothing \
else, with the tool's name in \"action\" and its parameters beside it, for example:

```json
{\"action\": \"read_file\", \"path\": \"src/main.rs\"}
```

Use one tool per reply; its result will be sent back to you. Escape backslashes and quotes inside \
JSON strings. When you do not need a tool, reply in plain text: that is your answer.

The available tools are described below.
";

/// How a model calls tools: a per-model provider setting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolCalling {
    /// The provider's native tool calling.
    #[default]
    Native,
    /// The text protocol, for models without native tools.
    TextProtocol,
}

/// `provider` as it should be used under `mode`: unchanged for native tool calling, wrapped in a
/// [`TextProtocolProvider`] with `catalogue` (the Markdown tool catalogue) for the text protocol.
pub fn with_tool_calling(
    provider: Arc<dyn Provider>,
    mode: ToolCalling,
    catalogue: &str,
) -> Arc<dyn Provider> {
    match mode {
        ToolCalling::Native => provider,
        ToolCalling::TextProtocol => Arc::new(TextProtocolProvider::new(provider, catalogue)),
    }
}

/// Wraps a provider so that its model calls tools through text.
#[derive(Debug, Clone)]
pub struct TextProtocolProvider {
    inner: Arc<dyn Provider>,
    catalogue: String,
}

impl TextProtocolProvider {
    /// `catalogue` is the Markdown tool catalogue the tool manager renders.
    pub fn new(inner: Arc<dyn Provider>, catalogue: impl Into<String>) -> Self {
        Self {
            inner,
            catalogue: catalogue.into(),
        }
    }

    /// The request sent to the inner provider: no tools, protocol and catalogue in the system
    /// prompt, tool calls and results as text.
    pub fn rewrite_request(&self, request: &ProviderRequest) -> ProviderRequest {
        let mut system = request.system.trim_end().to_string();
        if !system.is_empty() {
            system.push_str("\n\n");
        }
        system.push_str(PROTOCOL_INSTRUCTIONS);
        system.push('\n');
        system.push_str(self.catalogue.trim());
        system.push('\n');
        ProviderRequest {
            model: request.model.clone(),
            system,
            messages: text_messages(&request.messages),
            tools: Vec::new(),
            limits: request.limits.clone(),
        }
    }
}

/// The conversation with tool calls and results written as protocol text.
pub fn text_messages(messages: &[Message]) -> Vec<Message> {
    let mut names: HashMap<&str, &str> = HashMap::new();
    messages
        .iter()
        .map(|message| match message {
            Message::User { .. } => message.clone(),
            Message::Assistant {
                text, tool_calls, ..
            } => {
                let mut parts: Vec<String> = Vec::new();
                if !text.trim().is_empty() {
                    parts.push(text.trim_end().to_string());
                }
                for call in tool_calls {
                    names.insert(&call.id, &call.name);
                    let mut object = serde_json::Map::new();
                    object.insert(
                        "action".into(),
                        serde_json::Value::String(call.name.clone()),
                    );
                    if let serde_json::Value::Object(arguments) = &call.arguments {
                        object.extend(arguments.clone());
                    }
                    parts.push(format!(
                        "```json\n{}\n```",
                        serde_json::Value::Object(object)
                    ));
                }
                Message::assistant(parts.join("\n\n"))
            }
            Message::ToolResult(result) => {
                let name = names
                    .get(result.call_id.as_str())
                    .copied()
                    .unwrap_or("tool");
                let heading = if result.is_error {
                    format!("Error from `{name}`:")
                } else {
                    format!("Result of `{name}`:")
                };
                Message::user(format!("{heading}\n{}", result.content))
            }
        })
        .collect()
}

struct State {
    inner: EventStream,
    streamer: TextCallStreamer,
    pending: VecDeque<Result<ProviderEvent, ProviderError>>,
    done: bool,
}

impl Provider for TextProtocolProvider {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn stream(&self, request: ProviderRequest, cancel: CancellationToken) -> EventStream {
        let tools = request.tools.iter().map(|tool| tool.name.clone()).collect();
        let state = State {
            inner: self.inner.stream(self.rewrite_request(&request), cancel),
            streamer: TextCallStreamer::new(tools),
            pending: VecDeque::new(),
            done: false,
        };
        Box::pin(futures_util::stream::unfold(
            state,
            |mut state| async move {
                loop {
                    if let Some(item) = state.pending.pop_front() {
                        return Some((item, state));
                    }
                    if state.done {
                        return None;
                    }
                    match state.inner.next().await {
                        // Without a `Stop` the answer broke off: nothing held back is lost.
                        None => {
                            state.done = true;
                            state
                                .pending
                                .extend(state.streamer.release().into_iter().map(Ok));
                        }
                        Some(Err(error)) => {
                            state.done = true;
                            state
                                .pending
                                .extend(state.streamer.release().into_iter().map(Ok));
                            state.pending.push_back(Err(error));
                        }
                        Some(Ok(ProviderEvent::TextDelta(text))) => {
                            state
                                .pending
                                .extend(state.streamer.push(&text).into_iter().map(Ok));
                        }
                        Some(Ok(ProviderEvent::Stop { reason })) => {
                            let (closing, reason): (Vec<ProviderEvent>, StopReason) =
                                state.streamer.finish(reason);
                            state.pending.extend(closing.into_iter().map(Ok));
                            state.pending.push_back(Ok(ProviderEvent::Stop { reason }));
                            state.done = true;
                        }
                        Some(Ok(other)) => state.pending.push_back(Ok(other)),
                    }
                }
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::message::ToolCall;
    use crate::providers::request::ToolDefinition;
    use serde_json::json;

    #[derive(Debug)]
    struct Unused;

    impl Provider for Unused {
        fn name(&self) -> &str {
            "unused"
        }
        fn stream(&self, _: ProviderRequest, _: CancellationToken) -> EventStream {
            Box::pin(futures_util::stream::empty())
        }
    }

    #[test]
    fn the_setting_selects_the_wrapper() {
        let native = with_tool_calling(Arc::new(Unused), ToolCalling::Native, "cat");
        assert_eq!(format!("{native:?}"), "Unused");
        let text = with_tool_calling(Arc::new(Unused), ToolCalling::TextProtocol, "cat");
        assert!(format!("{text:?}").starts_with("TextProtocolProvider"));
        assert_eq!(text.name(), "unused");
        assert_eq!(
            serde_json::to_string(&ToolCalling::TextProtocol).unwrap(),
            "\"text_protocol\""
        );
    }

    #[test]
    fn rewritten_request_carries_the_catalogue_and_no_tools() {
        let provider = TextProtocolProvider::new(Arc::new(Unused), "## read_file\nReads a file.");
        let request = ProviderRequest::new(
            "llama3.2",
            "You are Foreman.",
            vec![
                Message::user("show main"),
                Message::assistant_with_calls(
                    "Reading.",
                    vec![ToolCall {
                        id: "c1".into(),
                        name: "read_file".into(),
                        arguments: json!({"path": "main.rs"}),
                    }],
                ),
                Message::tool_result("c1", "fn main() {}", false),
                Message::tool_result("zz", "boom", true),
            ],
        )
        .with_tools(vec![ToolDefinition {
            name: "read_file".into(),
            description: "Reads a file.".into(),
            input_schema: json!({}),
        }]);
        let rewritten = provider.rewrite_request(&request);
        assert!(rewritten.tools.is_empty());
        assert!(
            rewritten
                .system
                .starts_with("You are Foreman.\n\n# Using tools")
        );
        assert!(rewritten.system.ends_with("## read_file\nReads a file.\n"));
        assert_eq!(
            rewritten.messages[1],
            Message::assistant(
                "Reading.\n\n```json\n{\"action\":\"read_file\",\"path\":\"main.rs\"}\n```"
            )
        );
        assert_eq!(
            rewritten.messages[2],
            Message::user("Result of `read_file`:\nfn main() {}")
        );
        assert_eq!(
            rewritten.messages[3],
            Message::user("Error from `tool`:\nboom")
        );
    }
}
