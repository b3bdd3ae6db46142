//! Tool calling for models without native tools: the text protocol.
//!
//! [`TextProtocolProvider`] wraps any provider. It sends no tool definitions; instead the system
//! prompt carries the Markdown tool catalogue and asks the model to answer with exactly one JSON
//! object `{"action": "<tool>", ...params}` to use a tool, or plain text for a direct answer.
//! Past tool calls and results are written into the conversation as text in the same protocol.
//! The answer is streamed through the `text_stream` state machine so a call shows up as a
//! partial call (`ToolCallStart`, `ToolCallArgsDelta`) like a native one, and is extracted with
//! [`extract_call`](super::text_extract::extract_call) as soon as its object closes: the answer
//! ends there, the request to the inner provider is cancelled, and whatever the model would have
//! written after the object is never waited for (nor shown). An unknown action ends as
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
    /// Cancels the inner request once the call's object has closed.
    stop_inner: CancellationToken,
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
        let stop_inner = cancel.child_token();
        let state = State {
            inner: self
                .inner
                .stream(self.rewrite_request(&request), stop_inner.clone()),
            stop_inner,
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
                            if state.streamer.call_closed() {
                                // The first complete call ends the answer.
                                state.stop_inner.cancel();
                                let (closing, reason) = state.streamer.finish_at_call();
                                state.pending.extend(closing.into_iter().map(Ok));
                                state.pending.push_back(Ok(ProviderEvent::Stop { reason }));
                                state.done = true;
                            }
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

    /// A model that writes `pieces`, then either stops or stalls forever (a rambling model on a
    /// slow server), and records whether its request was cancelled.
    #[derive(Debug)]
    struct Rambler {
        pieces: Vec<&'static str>,
        stall: bool,
        cancelled: Arc<std::sync::Mutex<Option<CancellationToken>>>,
    }

    impl Provider for Rambler {
        fn name(&self) -> &str {
            "rambler"
        }
        fn stream(&self, _: ProviderRequest, cancel: CancellationToken) -> EventStream {
            if let Ok(mut slot) = self.cancelled.lock() {
                *slot = Some(cancel);
            }
            let text = self
                .pieces
                .iter()
                .map(|p| Ok(ProviderEvent::TextDelta((*p).to_owned())));
            let head = futures_util::stream::iter(text.collect::<Vec<_>>());
            if self.stall {
                Box::pin(head.chain(futures_util::stream::pending()))
            } else {
                let stop = Ok(ProviderEvent::Stop {
                    reason: StopReason::EndTurn,
                });
                Box::pin(head.chain(futures_util::stream::iter([stop])))
            }
        }
    }

    async fn answer(pieces: Vec<&'static str>, stall: bool) -> (Vec<ProviderEvent>, bool) {
        let cancelled = Arc::new(std::sync::Mutex::new(None));
        let inner = Rambler {
            pieces,
            stall,
            cancelled: Arc::clone(&cancelled),
        };
        let provider = TextProtocolProvider::new(Arc::new(inner), "## read\nReads a file.");
        let request = ProviderRequest::new("gemma", "", vec![Message::user("read calc.py")])
            .with_tools(vec![ToolDefinition {
                name: "read".into(),
                description: "Reads a file.".into(),
                input_schema: json!({}),
            }]);
        let stream = provider.stream(request, CancellationToken::new());
        let events = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            stream.map(|e| e.unwrap()).collect::<Vec<_>>(),
        )
        .await
        .expect("the answer ends without waiting for the model");
        let was_cancelled = cancelled
            .lock()
            .unwrap()
            .as_ref()
            .is_some_and(CancellationToken::is_cancelled);
        (events, was_cancelled)
    }

    fn shown_text(events: &[ProviderEvent]) -> String {
        events
            .iter()
            .filter_map(|e| match e {
                ProviderEvent::TextDelta(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    fn ended_call(events: &[ProviderEvent]) -> Option<serde_json::Value> {
        events.iter().find_map(|e| match e {
            ProviderEvent::ToolCallEnd {
                arguments: crate::providers::ToolArguments::Parsed(v),
                ..
            } => Some(v.clone()),
            _ => None,
        })
    }

    #[tokio::test]
    async fn an_object_followed_by_prose_ends_the_answer_at_its_brace() {
        let (events, cancelled) = answer(
            vec![
                "Sure. {\"action\": \"read\", \"pa",
                "th\": \"calc.py\"} and then I will explain the file in great detail",
                " because I like to talk",
            ],
            false,
        )
        .await;
        assert_eq!(ended_call(&events), Some(json!({"path": "calc.py"})));
        assert_eq!(shown_text(&events), "Sure. ");
        assert!(
            matches!(
                events.last(),
                Some(ProviderEvent::Stop {
                    reason: StopReason::ToolUse
                })
            ),
            "{events:?}"
        );
        assert!(cancelled, "the request to the server is cancelled");
    }

    #[tokio::test]
    async fn of_two_objects_the_first_is_the_call() {
        let (events, _) = answer(
            vec![
                "{\"action\": \"read\", \"path\": \"a.py\"}\n",
                "{\"action\": \"read\", \"path\": \"b.py\"}",
            ],
            false,
        )
        .await;
        assert_eq!(ended_call(&events), Some(json!({"path": "a.py"})));
        let starts = events
            .iter()
            .filter(|e| matches!(e, ProviderEvent::ToolCallStart { .. }))
            .count();
        assert_eq!(starts, 1);
    }

    #[tokio::test]
    async fn an_object_followed_by_a_stall_runs_without_waiting() {
        let (events, cancelled) = answer(
            vec![
                "```json\n{\"action\": \"read\", \"path\": \"calc.py\"}\n",
                "``",
            ],
            true,
        )
        .await;
        assert_eq!(ended_call(&events), Some(json!({"path": "calc.py"})));
        assert!(cancelled);
    }

    #[tokio::test]
    async fn an_unfinished_object_still_waits_for_the_rest() {
        let (events, cancelled) = answer(
            vec!["{\"action\": \"read\", \"path\": \"ca", "lc.py\"}"],
            false,
        )
        .await;
        assert_eq!(ended_call(&events), Some(json!({"path": "calc.py"})));
        assert!(
            cancelled,
            "it closed in the last piece, so the request is cancelled then"
        );
    }
}
