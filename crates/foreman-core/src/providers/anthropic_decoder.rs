//! Decoding the Anthropic Messages API stream.
//!
//! `message_start` (input usage) → per content block `content_block_start` / `content_block_delta`
//! (`text_delta`, `thinking_delta`, `input_json_delta`) / `content_block_stop` → `message_delta`
//! (stop reason, output usage) → `message_stop`. `ping` is ignored; `error` ends the stream with
//! [`ProviderError::Api`]. The event kind is read from the JSON `type` field, so a missing `event:`
//! line does not matter.
//!
//! A tool block whose JSON is incomplete at `content_block_stop` is held back until
//! `message_delta` says why the model stopped: `max_tokens` makes it
//! [`Truncated`](super::ToolArguments::Truncated), anything else [`Invalid`](super::ToolArguments::Invalid).

use std::collections::BTreeMap;

use serde_json::Value;

use super::error::ProviderError;
use super::event::{ProviderEvent, StopReason};
use super::tool_call::{ArgumentsVerdict, finish_arguments, judge_arguments};
use super::usage::Usage;
use super::wire::WireDecoder;

const PROVIDER: &str = "Anthropic";

#[derive(Debug)]
enum Block {
    Text,
    Thinking,
    Tool { id: String, raw: String },
    Other,
}

/// Stream state of one Anthropic response.
#[derive(Debug, Default)]
pub struct AnthropicDecoder {
    blocks: BTreeMap<u64, Block>,
    /// Tool calls whose JSON was incomplete at block stop: (id, raw).
    held: Vec<(String, String)>,
    usage: Usage,
    stop: Option<StopReason>,
    finished: bool,
}

impl AnthropicDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    fn close_block(&mut self, index: u64) -> Vec<ProviderEvent> {
        match self.blocks.remove(&index) {
            Some(Block::Tool { id, raw }) => match judge_arguments(&raw) {
                ArgumentsVerdict::Incomplete if self.stop.is_none() => {
                    self.held.push((id, raw));
                    Vec::new()
                }
                _ => vec![ProviderEvent::ToolCallEnd {
                    arguments: finish_arguments(&raw, self.stop.as_ref()),
                    id,
                }],
            },
            _ => Vec::new(),
        }
    }

    /// Ends every held or still-open tool call now that the stop reason is known.
    fn release_tool_calls(&mut self) -> Vec<ProviderEvent> {
        let open: Vec<u64> = self
            .blocks
            .iter()
            .filter(|(_, block)| matches!(block, Block::Tool { .. }))
            .map(|(index, _)| *index)
            .collect();
        let mut events: Vec<ProviderEvent> = self
            .held
            .drain(..)
            .map(|(id, raw)| ProviderEvent::ToolCallEnd {
                arguments: finish_arguments(&raw, self.stop.as_ref()),
                id,
            })
            .collect();
        for index in open {
            events.extend(self.close_block(index));
        }
        events
    }

    fn read_usage(&mut self, usage: &Value) {
        let field = |name: &str| usage.get(name).and_then(Value::as_u64);
        if let Some(input) = field("input_tokens") {
            self.usage.input = input;
        }
        if let Some(output) = field("output_tokens") {
            self.usage.output = output;
        }
        if let Some(read) = field("cache_read_input_tokens") {
            self.usage.cache_read = read;
        }
        if let Some(write) = field("cache_creation_input_tokens") {
            self.usage.cache_write = write;
        }
    }

    fn finish(&mut self) -> Vec<ProviderEvent> {
        let mut events = self.release_tool_calls();
        self.finished = true;
        events.push(ProviderEvent::Stop {
            reason: self.stop.clone().unwrap_or(StopReason::EndTurn),
        });
        events
    }
}

fn protocol(message: impl Into<String>) -> ProviderError {
    ProviderError::Protocol {
        provider: PROVIDER.to_string(),
        message: message.into(),
    }
}

/// Maps Anthropic's `stop_reason`.
pub(crate) fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "end_turn" => StopReason::EndTurn,
        "tool_use" => StopReason::ToolUse,
        "max_tokens" | "model_context_window_exceeded" => StopReason::MaxTokens,
        "stop_sequence" => StopReason::StopSequence,
        "refusal" => StopReason::Refusal,
        other => StopReason::Other(other.to_string()),
    }
}

fn text(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

impl WireDecoder for AnthropicDecoder {
    fn on_event(&mut self, event: &str, data: &str) -> Result<Vec<ProviderEvent>, ProviderError> {
        if data.trim().is_empty() {
            return Ok(Vec::new());
        }
        let json: Value = serde_json::from_str(data)
            .map_err(|err| protocol(format!("event `{event}` is not JSON ({err})")))?;
        let kind = json.get("type").and_then(Value::as_str).unwrap_or(event);
        let index = json.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind {
            "message_start" => {
                if let Some(usage) = json.pointer("/message/usage") {
                    self.read_usage(usage);
                }
                Ok(Vec::new())
            }
            "content_block_start" => {
                let block = json.get("content_block").cloned().unwrap_or(Value::Null);
                let (state, events) = match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        let initial = text(&block, "text");
                        let events = if initial.is_empty() {
                            Vec::new()
                        } else {
                            vec![ProviderEvent::TextDelta(initial)]
                        };
                        (Block::Text, events)
                    }
                    Some("thinking") => {
                        let initial = text(&block, "thinking");
                        let events = if initial.is_empty() {
                            Vec::new()
                        } else {
                            vec![ProviderEvent::ThinkingDelta(initial)]
                        };
                        (Block::Thinking, events)
                    }
                    // Encrypted reasoning: kept whole, to be sent back unchanged.
                    Some("redacted_thinking") => {
                        let data = text(&block, "data");
                        let events = if data.is_empty() {
                            Vec::new()
                        } else {
                            vec![ProviderEvent::RedactedThinking(data)]
                        };
                        (Block::Other, events)
                    }
                    Some("tool_use") => {
                        let id = text(&block, "id");
                        let name = text(&block, "name");
                        let start = ProviderEvent::ToolCallStart {
                            id: id.clone(),
                            name,
                        };
                        let raw = String::new();
                        (Block::Tool { id, raw }, vec![start])
                    }
                    _ => (Block::Other, Vec::new()),
                };
                self.blocks.insert(index, state);
                Ok(events)
            }
            "content_block_delta" => {
                let delta = json.get("delta").cloned().unwrap_or(Value::Null);
                let delta_kind = delta.get("type").and_then(Value::as_str).unwrap_or("");
                match (self.blocks.get_mut(&index), delta_kind) {
                    (Some(Block::Text), "text_delta") => {
                        let piece = text(&delta, "text");
                        Ok(if piece.is_empty() {
                            Vec::new()
                        } else {
                            vec![ProviderEvent::TextDelta(piece)]
                        })
                    }
                    (Some(Block::Thinking), "thinking_delta") => {
                        let piece = text(&delta, "thinking");
                        Ok(if piece.is_empty() {
                            Vec::new()
                        } else {
                            vec![ProviderEvent::ThinkingDelta(piece)]
                        })
                    }
                    (Some(Block::Tool { id, raw }), "input_json_delta") => {
                        let fragment = text(&delta, "partial_json");
                        if fragment.is_empty() {
                            return Ok(Vec::new());
                        }
                        raw.push_str(&fragment);
                        Ok(vec![ProviderEvent::ToolCallArgsDelta {
                            id: id.clone(),
                            fragment,
                        }])
                    }
                    (None, _) => Err(protocol(format!(
                        "content_block_delta for block {index}, which was never started"
                    ))),
                    (Some(Block::Thinking), "signature_delta") => {
                        let signature = text(&delta, "signature");
                        Ok(if signature.is_empty() {
                            Vec::new()
                        } else {
                            vec![ProviderEvent::ThinkingSignature(signature)]
                        })
                    }
                    // citations and other deltas carry nothing we show.
                    _ => Ok(Vec::new()),
                }
            }
            "content_block_stop" => Ok(self.close_block(index)),
            "message_delta" => {
                if let Some(reason) = json.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop = Some(stop_reason(reason));
                }
                if let Some(usage) = json.get("usage") {
                    self.read_usage(usage);
                }
                let mut events = self.release_tool_calls();
                events.push(ProviderEvent::Usage(self.usage));
                Ok(events)
            }
            "message_stop" => Ok(self.finish()),
            "error" => {
                let error = json.get("error").cloned().unwrap_or(Value::Null);
                Err(ProviderError::Api {
                    provider: PROVIDER.to_string(),
                    kind: text(&error, "type"),
                    message: text(&error, "message"),
                })
            }
            // ping and event kinds added in later API versions.
            _ => Ok(Vec::new()),
        }
    }

    fn on_end(&mut self) -> Result<Vec<ProviderEvent>, ProviderError> {
        if self.finished {
            return Ok(Vec::new());
        }
        if self.stop.is_some() {
            // message_delta arrived; only message_stop is missing.
            return Ok(self.finish());
        }
        Err(ProviderError::StreamInterrupted {
            provider: PROVIDER.to_string(),
            message: "the stream ended before the message was complete".to_string(),
        })
    }

    fn is_finished(&self) -> bool {
        self.finished
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::event::ToolArguments;
    use serde_json::json;

    fn feed(decoder: &mut AnthropicDecoder, events: &[Value]) -> Vec<ProviderEvent> {
        let mut out = Vec::new();
        for event in events {
            out.extend(decoder.on_event("", &event.to_string()).unwrap());
        }
        out
    }

    fn tool_start(index: u64, id: &str, name: &str) -> Value {
        json!({"type":"content_block_start","index":index,
               "content_block":{"type":"tool_use","id":id,"name":name,"input":{}}})
    }

    fn json_delta(index: u64, fragment: &str) -> Value {
        json!({"type":"content_block_delta","index":index,
               "delta":{"type":"input_json_delta","partial_json":fragment}})
    }

    fn message_delta(reason: &str, output: u64) -> Value {
        json!({"type":"message_delta","delta":{"stop_reason":reason},"usage":{"output_tokens":output}})
    }

    #[test]
    fn tool_without_arguments_gets_an_empty_object() {
        let mut decoder = AnthropicDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                tool_start(0, "t1", "list_files"),
                json_delta(0, ""),
                json!({"type":"content_block_stop","index":0}),
            ],
        );
        assert_eq!(
            events,
            vec![
                ProviderEvent::ToolCallStart {
                    id: "t1".into(),
                    name: "list_files".into()
                },
                ProviderEvent::ToolCallEnd {
                    id: "t1".into(),
                    arguments: ToolArguments::Parsed(json!({}))
                },
            ]
        );
    }

    #[test]
    fn max_tokens_mid_json_is_truncated() {
        let mut decoder = AnthropicDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                tool_start(0, "t1", "write_file"),
                json_delta(0, r#"{"path":"a.rs","content":"fn ma"#),
                json!({"type":"content_block_stop","index":0}),
                message_delta("max_tokens", 4096),
                json!({"type":"message_stop"}),
            ],
        );
        let end = events
            .iter()
            .find_map(|e| match e {
                ProviderEvent::ToolCallEnd { arguments, .. } => Some(arguments.clone()),
                _ => None,
            })
            .unwrap();
        assert!(end.is_truncated(), "{end:?}");
        assert_eq!(
            events.last(),
            Some(&ProviderEvent::Stop {
                reason: StopReason::MaxTokens
            })
        );
    }

    #[test]
    fn max_tokens_without_block_stop_is_truncated_too() {
        let mut decoder = AnthropicDecoder::new();
        let mut events = feed(
            &mut decoder,
            &[
                tool_start(0, "t1", "write_file"),
                json_delta(0, r#"{"path":"#),
                message_delta("max_tokens", 10),
            ],
        );
        events.extend(decoder.on_end().unwrap());
        assert!(events.iter().any(|e| matches!(
            e,
            ProviderEvent::ToolCallEnd { arguments: ToolArguments::Truncated { raw }, .. } if raw == r#"{"path":"#
        )));
    }

    #[test]
    fn invalid_final_json_is_invalid_params_not_a_crash() {
        let mut decoder = AnthropicDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                tool_start(0, "t1", "read_file"),
                json_delta(0, r#"{"path": src/main.rs}"#),
                json!({"type":"content_block_stop","index":0}),
                message_delta("tool_use", 10),
                json!({"type":"message_stop"}),
            ],
        );
        let arguments = events
            .iter()
            .find_map(|e| match e {
                ProviderEvent::ToolCallEnd { arguments, .. } => Some(arguments.clone()),
                _ => None,
            })
            .unwrap();
        let err = arguments.into_result().unwrap_err();
        assert!(err.to_string().starts_with("InvalidParams"), "{err}");
    }

    #[test]
    fn redacted_thinking_blocks_are_kept_with_their_data() {
        let mut decoder = AnthropicDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                json!({"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4a"}}),
                json!({"type":"content_block_stop","index":0}),
                json!({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}),
                json!({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}}),
            ],
        );
        assert_eq!(
            events,
            vec![
                ProviderEvent::RedactedThinking("EmwKAhgBEgy3va3pzix/LafPsn4a".into()),
                ProviderEvent::TextDelta("Hi".into()),
            ]
        );
    }

    #[test]
    fn thinking_text_usage_and_error_events() {
        let mut decoder = AnthropicDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                json!({"type":"message_start","message":{"usage":{"input_tokens":12,"cache_creation_input_tokens":100,"cache_read_input_tokens":7,"output_tokens":1}}}),
                json!({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}),
                json!({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}),
                json!({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}),
                json!({"type":"content_block_stop","index":0}),
                json!({"type":"ping"}),
                json!({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}),
                json!({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}}),
                message_delta("end_turn", 30),
            ],
        );
        assert_eq!(
            events,
            vec![
                ProviderEvent::ThinkingDelta("hmm".into()),
                ProviderEvent::ThinkingSignature("abc".into()),
                ProviderEvent::TextDelta("Hi".into()),
                ProviderEvent::Usage(Usage {
                    input: 12,
                    output: 30,
                    cache_read: 7,
                    cache_write: 100
                }),
            ]
        );
        let err = decoder
            .on_event(
                "error",
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            )
            .unwrap_err();
        assert!(err.is_retryable());
        assert!(err.to_string().contains("Overloaded"));
    }

    #[test]
    fn a_stream_that_ends_early_is_interrupted() {
        let mut decoder = AnthropicDecoder::new();
        feed(
            &mut decoder,
            &[
                json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
            ],
        );
        assert!(matches!(
            decoder.on_end(),
            Err(ProviderError::StreamInterrupted { .. })
        ));
    }
}
