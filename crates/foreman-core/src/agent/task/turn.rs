//! One model request: stream it, forward text and thinking, put up a card for every tool call
//! at once and keep it growing with patches (and, for file changes, a throttled live preview).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::Value;

use crate::agent::calls::args_stream::ArgsStream;
use crate::agent::calls::preview::file_preview;
use crate::agent::engine::Engine;
use crate::agent::task::repetition::{Repeated, RepetitionGuard};
use crate::protocol::{CallState, EventMsg};
use crate::providers::{
    Limits, ProviderError, ProviderEvent, ProviderRequest, StopReason, Thinking,
    ToolArgumentsError, Usage,
};

/// How often a streaming file change recomputes its live preview.
pub const LIVE_PREVIEW_INTERVAL: Duration = Duration::from_millis(250);

/// A tool call as the model finished (or failed to finish) it.
#[derive(Debug, Clone)]
pub(crate) struct StreamedCall {
    pub id: String,
    pub name: String,
    /// The complete arguments, or why they are unusable (the message for the model).
    pub arguments: Result<Value, UnusableArguments>,
}

/// Why a call's arguments cannot be used; the text is what the model reads as the result.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum UnusableArguments {
    #[error(transparent)]
    Arguments(#[from] ToolArgumentsError),
    #[error("Cancelled by the user while the call streamed.")]
    Cancelled,
    #[error("The response ended before this call was complete: {0}")]
    Failed(String),
    #[error("The response ended before this call was complete.")]
    Ended,
}

/// What one model request produced.
#[derive(Debug, Default)]
pub(crate) struct TurnOutput {
    pub text: String,
    /// Signed and redacted thinking blocks, sent back with the assistant turn.
    pub thinking: Vec<Thinking>,
    /// Thinking text of the block still open.
    pub open_thinking: String,
    pub calls: Vec<StreamedCall>,
    pub error: Option<ProviderError>,
    /// Watches the text for a model that repeats itself.
    pub guard: RepetitionGuard,
    /// Set when the guard stopped the answer.
    pub repeated: Option<Repeated>,
    /// Why the model stopped, as the provider said.
    pub stop: Option<StopReason>,
    /// The output tokens the provider counted for this answer, when it said.
    pub output_tokens: Option<u64>,
}

impl TurnOutput {
    /// What the user reads when the answer, without a tool call, ran into the output limit of
    /// `limits` and was cut off; `None` when it was not.
    pub fn cut_off_message(&self, limits: &Limits) -> Option<String> {
        if self.stop != Some(StopReason::MaxTokens) || !self.calls.is_empty() {
            return None;
        }
        let answer = limits
            .max_tokens
            .saturating_sub(limits.thinking_budget.unwrap_or(0));
        // A server may stop at a cap of its own (llama.cpp's `--n-predict`, Ollama's
        // `num_predict`) below the limit Foreman sent: then raising Foreman's would not help.
        if let Some(used) = self
            .output_tokens
            .filter(|used| *used < u64::from(limits.max_tokens))
        {
            return Some(format!(
                "The server cut the answer off after {used} tokens, below Foreman’s limit of \
                 {answer}: its own output limit stopped it. Raise that limit in the server’s \
                 settings, or ask for something shorter."
            ));
        }
        Some(format!(
            "The answer reached its limit of {answer} tokens and was cut off. Raise “Max answer \
             tokens” in Settings (--max-tokens in the CLI), or ask for something shorter."
        ))
    }
}

/// Persistence work after a provider event.
enum AfterEvent {
    Nothing,
    /// The model repeats itself: the answer stops here.
    Repeated,
    Created,
    Usage(Usage),
}

struct Streaming {
    args: ArgsStream,
    last_preview: Instant,
}

impl Engine {
    /// Puts up the card of a call the model began, drawn by its tool's kind and view (an unknown
    /// name gets the plain card).
    fn create_call(&mut self, id: &str, name: &str) {
        let (kind, view) = self
            .tools
            .set
            .get(name)
            .map(|t| (t.kind(), t.view()))
            .unwrap_or_default();
        self.calls.create(&mut self.events, id, name, kind, view);
    }

    /// Counts a request's usage into the session's spend and tells the user (the running
    /// totals, cost estimate and context use come with it).
    pub(crate) fn report_usage(&mut self, usage: Usage) {
        self.llm.spend.record(&self.llm.model, usage);
        self.events.emit(EventMsg::Usage {
            input: usage.input,
            output: usage.output,
            cache_read: usage.cache_read,
            cache_write: usage.cache_write,
            session: self.llm.spend.summary(&self.llm.model),
        });
    }

    /// Streams one request built from the current history.
    pub(crate) async fn stream_turn(&mut self) -> TurnOutput {
        let request = ProviderRequest::new(
            &self.llm.model,
            &self.frame.system,
            self.frame.history.clone(),
        )
        .with_tools(self.frame.definitions.clone())
        .with_limits(self.llm.limits.clone());
        let mut stream = self
            .llm
            .provider
            .stream(request, self.task.cancel.child_token());
        let mut out = TurnOutput::default();
        let mut open: HashMap<String, Streaming> = HashMap::new();
        loop {
            let item = tokio::select! {
                item = stream.next() => item,
                op = self.next_op() => {
                    self.handle_side_op(op).await;
                    continue;
                }
            };
            match item {
                None => break,
                Some(Err(e)) => {
                    out.error = Some(e);
                    break;
                }
                Some(Ok(event)) => match self.on_provider_event(event, &mut out, &mut open) {
                    AfterEvent::Nothing => {}
                    // Dropping the stream below cancels the request.
                    AfterEvent::Repeated => break,
                    AfterEvent::Created => self.flush_calls().await,
                    AfterEvent::Usage(usage) => self.save_usage(usage).await,
                },
            }
        }
        // Calls the stream never finished.
        let reason = match &out.error {
            Some(ProviderError::Cancelled) => UnusableArguments::Cancelled,
            Some(e) => UnusableArguments::Failed(e.to_string()),
            None => UnusableArguments::Ended,
        };
        let mut unfinished: Vec<(String, String)> = Vec::new();
        for (id, streaming) in open {
            self.calls.set_arguments(&id, streaming.args.snapshot());
            let name = self
                .calls
                .get(&id)
                .map(|c| c.name.clone())
                .unwrap_or_default();
            unfinished.push((id, name));
        }
        // Keep creation order.
        unfinished.sort_by_key(|(id, _)| self.calls.position(id).unwrap_or(usize::MAX));
        for (id, name) in unfinished {
            out.calls.push(StreamedCall {
                id,
                name,
                arguments: Err(reason.clone()),
            });
        }
        out
    }

    fn on_provider_event(
        &mut self,
        event: ProviderEvent,
        out: &mut TurnOutput,
        open: &mut HashMap<String, Streaming>,
    ) -> AfterEvent {
        match event {
            ProviderEvent::TextDelta(mut text) => {
                let repeated = out.guard.push(&text);
                if let Some((_, upto)) = &repeated {
                    // What follows the line that showed the loop is more of the same.
                    text.truncate(*upto);
                }
                out.text.push_str(&text);
                if !text.is_empty() {
                    self.events.emit(EventMsg::TextDelta { text });
                }
                if let Some((repeated, _)) = repeated {
                    out.repeated = Some(repeated);
                    return AfterEvent::Repeated;
                }
            }
            ProviderEvent::ThinkingDelta(text) => {
                out.open_thinking.push_str(&text);
                self.events.emit(EventMsg::ThinkingDelta { text });
            }
            ProviderEvent::ThinkingSignature(signature) => out.thinking.push(Thinking::Signed {
                text: std::mem::take(&mut out.open_thinking),
                signature,
            }),
            ProviderEvent::RedactedThinking(data) => {
                out.thinking.push(Thinking::Redacted { data });
            }
            ProviderEvent::ToolCallStart { id, name } => {
                self.create_call(&id, &name);
                open.insert(
                    id,
                    Streaming {
                        args: ArgsStream::new(),
                        last_preview: Instant::now(),
                    },
                );
                return AfterEvent::Created;
            }
            ProviderEvent::ToolCallArgsDelta { id, fragment } => {
                let now = Instant::now();
                let Some(streaming) = open.get_mut(&id) else {
                    return AfterEvent::Nothing;
                };
                let Some(args) = streaming.args.push(&fragment, now) else {
                    return AfterEvent::Nothing;
                };
                let tool = self
                    .calls
                    .get(&id)
                    .and_then(|c| self.tools.set.get(&c.name))
                    .cloned();
                let preview = match &tool {
                    Some(tool)
                        if tool.changes_files()
                            && now.saturating_duration_since(streaming.last_preview)
                                >= LIVE_PREVIEW_INTERVAL =>
                    {
                        streaming.last_preview = now;
                        tool.parse(&streaming.args.snapshot())
                            .ok()
                            .and_then(|input| tool.change(&input))
                            .map(|c| file_preview(&c, false))
                    }
                    _ => None,
                };
                let title = match (&tool, streaming.args.heads()) {
                    (Some(tool), (heads, true)) => Some(tool.title(heads)),
                    _ => None,
                };
                if let Some(title) = title.filter(|t| !t.is_empty()) {
                    self.calls.set_title(&mut self.events, &id, title);
                }
                self.events.emit(EventMsg::ToolCallUpdated {
                    call_id: id,
                    state: None,
                    args,
                    preview,
                    status: None,
                    images: None,
                    title: None,
                });
            }
            ProviderEvent::ToolCallEnd { id, arguments } => {
                let name = self
                    .calls
                    .get(&id)
                    .map(|c| c.name.clone())
                    .unwrap_or_default();
                let arguments = arguments.into_result().map_err(UnusableArguments::from);
                if let Some(mut streaming) = open.remove(&id) {
                    let args = streaming.args.finish(Instant::now());
                    let exactly = arguments
                        .as_ref()
                        .is_ok_and(|value| streaming.args.built(value));
                    self.calls.set_streamed_exactly(&id, exactly);
                    if !args.is_empty() {
                        self.events.emit(EventMsg::ToolCallUpdated {
                            call_id: id.clone(),
                            state: None,
                            args,
                            preview: None,
                            status: None,
                            images: None,
                            title: None,
                        });
                    }
                } else if self.calls.state(&id).is_none() {
                    // A provider that sends whole calls without a start.
                    self.create_call(&id, &name);
                }
                if let Ok(value) = &arguments {
                    self.calls.set_arguments(&id, value.clone());
                    if let Some(tool) = self.tools.set.get(&name) {
                        let title = tool.title(value);
                        if !title.is_empty() {
                            self.calls.set_title(&mut self.events, &id, title);
                        }
                    }
                }
                debug_assert_eq!(self.calls.state(&id), Some(CallState::Streaming));
                out.calls.push(StreamedCall {
                    id,
                    name,
                    arguments,
                });
            }
            ProviderEvent::Usage(usage) => {
                out.output_tokens = Some(out.output_tokens.unwrap_or(0).max(usage.output));
                self.report_usage(usage);
                return AfterEvent::Usage(usage);
            }
            ProviderEvent::Retrying(notice) => self.events.emit(EventMsg::Retrying {
                attempt: notice.attempt,
                max_attempts: notice.max_attempts,
                delay_ms: u64::try_from(notice.delay.as_millis()).unwrap_or(u64::MAX),
                message: notice.message(),
            }),
            ProviderEvent::Stop { reason } => out.stop = Some(reason),
        }
        AfterEvent::Nothing
    }
}
