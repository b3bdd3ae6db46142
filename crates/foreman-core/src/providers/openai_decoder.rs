//! Decoding the OpenAI Chat Completions stream (and compatible servers: Ollama, vLLM, OpenRouter).
//!
//! Each `data:` line is a `chat.completion.chunk`. Text arrives in `delta.content`, reasoning in
//! `delta.reasoning_content` (or `delta.reasoning`), tool calls in `delta.tool_calls[]` keyed by
//! `index` — possibly several in parallel, with `id` and `function.name` only on a call's first
//! delta. An empty `tool_calls: []` creates nothing. `finish_reason` ends the open calls (it may
//! say `"stop"` although tools were called, so the stop reason is derived from the calls seen),
//! usage arrives in a final chunk with `choices: []`, and `data: [DONE]` ends the stream.

use std::collections::BTreeMap;

use serde_json::Value;

use super::error::ProviderError;
use super::event::{ProviderEvent, StopReason};
use super::tool_call::finish_arguments;
use super::usage::Usage;
use super::wire::WireDecoder;

const PROVIDER: &str = "OpenAI-compatible server";

#[derive(Debug, Default)]
struct Call {
    id: String,
    name: String,
    raw: String,
    started: bool,
    ended: bool,
}

/// Stream state of one Chat Completions response.
#[derive(Debug, Default)]
pub struct OpenAiDecoder {
    calls: BTreeMap<u64, Call>,
    finish: Option<String>,
    finished: bool,
}

impl OpenAiDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    fn stop_reason(&self) -> StopReason {
        let called = self.calls.values().any(|call| call.started);
        match self.finish.as_deref() {
            Some("length") => StopReason::MaxTokens,
            Some("content_filter") => StopReason::Refusal,
            _ if called => StopReason::ToolUse,
            Some("tool_calls" | "function_call") => StopReason::ToolUse,
            Some("stop") | None => StopReason::EndTurn,
            Some(other) => StopReason::Other(other.to_string()),
        }
    }

    /// The call a delta belongs to: its `index`, or (servers that omit it) the call with its
    /// `id`, a new call for a new `id`, else the latest call.
    fn call_index(&self, delta: &Value) -> u64 {
        if let Some(index) = delta.get("index").and_then(Value::as_u64) {
            return index;
        }
        let latest = self.calls.keys().next_back().copied();
        match delta
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            Some(id) => self
                .calls
                .iter()
                .find(|(_, call)| call.id == id)
                .map(|(index, _)| *index)
                .unwrap_or_else(|| latest.map_or(0, |index| index + 1)),
            None => latest.unwrap_or(0),
        }
    }

    fn tool_delta(&mut self, delta: &Value, events: &mut Vec<ProviderEvent>) {
        let index = self.call_index(delta);
        let call = self.calls.entry(index).or_default();
        if call.ended {
            return;
        }
        if let Some(id) = delta
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            && call.id.is_empty()
        {
            call.id = id.to_string();
        }
        if let Some(name) = delta
            .pointer("/function/name")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            && call.name.is_empty()
        {
            call.name = name.to_string();
        }
        let fragment = delta
            .pointer("/function/arguments")
            .and_then(Value::as_str)
            .unwrap_or_default();
        call.raw.push_str(fragment);
        if !call.started && !call.name.is_empty() {
            if call.id.is_empty() {
                call.id = format!("call_{index}");
            }
            call.started = true;
            events.push(ProviderEvent::ToolCallStart {
                id: call.id.clone(),
                name: call.name.clone(),
            });
            // Fragments that arrived before the name are sent now, in one piece.
            if !call.raw.is_empty() {
                events.push(ProviderEvent::ToolCallArgsDelta {
                    id: call.id.clone(),
                    fragment: call.raw.clone(),
                });
            }
        } else if call.started && !fragment.is_empty() {
            events.push(ProviderEvent::ToolCallArgsDelta {
                id: call.id.clone(),
                fragment: fragment.to_string(),
            });
        }
    }

    fn end_calls(&mut self) -> Vec<ProviderEvent> {
        let stop = self.stop_reason();
        self.calls
            .values_mut()
            .filter(|call| call.started && !call.ended)
            .map(|call| {
                call.ended = true;
                ProviderEvent::ToolCallEnd {
                    id: call.id.clone(),
                    arguments: finish_arguments(&call.raw, Some(&stop)),
                }
            })
            .collect()
    }

    fn finish(&mut self) -> Vec<ProviderEvent> {
        let mut events = self.end_calls();
        self.finished = true;
        events.push(ProviderEvent::Stop {
            reason: self.stop_reason(),
        });
        events
    }
}

fn usage(value: &Value) -> Option<Usage> {
    let prompt = value.get("prompt_tokens").and_then(Value::as_u64)?;
    let output = value
        .get("completion_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let cached = value
        .pointer("/prompt_tokens_details/cached_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    Some(Usage {
        input: prompt.saturating_sub(cached),
        output,
        cache_read: cached,
        cache_write: 0,
    })
}

impl WireDecoder for OpenAiDecoder {
    fn on_event(&mut self, _event: &str, data: &str) -> Result<Vec<ProviderEvent>, ProviderError> {
        let data = data.trim();
        if data.is_empty() {
            return Ok(Vec::new());
        }
        if data == "[DONE]" {
            return Ok(if self.finished {
                Vec::new()
            } else {
                self.finish()
            });
        }
        let json: Value = serde_json::from_str(data).map_err(|err| ProviderError::Protocol {
            provider: PROVIDER.to_string(),
            message: format!("a stream chunk is not JSON ({err})"),
        })?;
        if let Some(error) = json.get("error") {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| error.to_string());
            let kind = error
                .get("type")
                .or_else(|| error.get("code"))
                .and_then(Value::as_str)
                .unwrap_or("error")
                .to_string();
            return Err(ProviderError::Api {
                provider: PROVIDER.to_string(),
                kind,
                message,
            });
        }
        let mut events = Vec::new();
        let choice = json
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|choices| choices.first());
        if let Some(choice) = choice {
            let delta = choice.get("delta").cloned().unwrap_or(Value::Null);
            for key in ["reasoning_content", "reasoning"] {
                if let Some(thought) = delta.get(key).and_then(Value::as_str) {
                    if !thought.is_empty() {
                        events.push(ProviderEvent::ThinkingDelta(thought.to_string()));
                    }
                    break;
                }
            }
            if let Some(content) = delta.get("content").and_then(Value::as_str)
                && !content.is_empty()
            {
                events.push(ProviderEvent::TextDelta(content.to_string()));
            }
            if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
                for call in calls {
                    self.tool_delta(call, &mut events);
                }
            }
            if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
                self.finish = Some(reason.to_string());
                events.extend(self.end_calls());
            }
        }
        if let Some(usage) = json.get("usage").and_then(usage) {
            events.push(ProviderEvent::Usage(usage));
        }
        Ok(events)
    }

    fn on_end(&mut self) -> Result<Vec<ProviderEvent>, ProviderError> {
        if self.finished {
            return Ok(Vec::new());
        }
        if self.finish.is_some() {
            // Some servers close the stream without `data: [DONE]`.
            return Ok(self.finish());
        }
        Err(ProviderError::StreamInterrupted {
            provider: PROVIDER.to_string(),
            message: "the stream ended before a finish_reason".to_string(),
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

    fn chunk(delta: Value, finish: Option<&str>) -> String {
        json!({"choices":[{"index":0,"delta":delta,"finish_reason":finish}]}).to_string()
    }

    fn feed(decoder: &mut OpenAiDecoder, chunks: &[String]) -> Vec<ProviderEvent> {
        let mut out = Vec::new();
        for data in chunks {
            out.extend(decoder.on_event("", data).unwrap());
        }
        out
    }

    #[test]
    fn stop_with_tool_calls_is_tool_use_and_empty_arrays_create_nothing() {
        let mut decoder = OpenAiDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                chunk(
                    json!({"role":"assistant","content":"","tool_calls":[]}),
                    None,
                ),
                chunk(
                    json!({"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"ls","arguments":""}}]}),
                    None,
                ),
                chunk(json!({"tool_calls":[]}), None),
                chunk(json!({}), Some("stop")),
                "[DONE]".to_string(),
            ],
        );
        assert_eq!(
            events,
            vec![
                ProviderEvent::ToolCallStart {
                    id: "c1".into(),
                    name: "ls".into()
                },
                ProviderEvent::ToolCallEnd {
                    id: "c1".into(),
                    arguments: ToolArguments::Parsed(json!({}))
                },
                ProviderEvent::Stop {
                    reason: StopReason::ToolUse
                },
            ]
        );
    }

    #[test]
    fn calls_without_index_are_told_apart_by_id() {
        let mut decoder = OpenAiDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                chunk(
                    json!({"tool_calls":[{"id":"a","function":{"name":"ls","arguments":"{\"p\":"}}]}),
                    None,
                ),
                chunk(
                    json!({"tool_calls":[{"function":{"arguments":"1}"}}]}),
                    None,
                ),
                chunk(
                    json!({"tool_calls":[{"id":"b","function":{"name":"cat","arguments":"{}"}}]}),
                    None,
                ),
                chunk(json!({}), Some("tool_calls")),
            ],
        );
        let ends: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                ProviderEvent::ToolCallEnd { id, arguments } => {
                    Some((id.as_str(), arguments.clone()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            ends,
            vec![
                ("a", ToolArguments::Parsed(json!({"p": 1}))),
                ("b", ToolArguments::Parsed(json!({}))),
            ]
        );
    }

    #[test]
    fn reasoning_text_and_cached_usage() {
        let mut decoder = OpenAiDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                chunk(json!({"reasoning_content":"think"}), None),
                chunk(json!({"content":"answer"}), None),
                chunk(json!({}), Some("stop")),
                json!({"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":60}}}).to_string(),
                "[DONE]".to_string(),
            ],
        );
        assert_eq!(
            events,
            vec![
                ProviderEvent::ThinkingDelta("think".into()),
                ProviderEvent::TextDelta("answer".into()),
                ProviderEvent::Usage(Usage {
                    input: 40,
                    output: 5,
                    cache_read: 60,
                    cache_write: 0
                }),
                ProviderEvent::Stop {
                    reason: StopReason::EndTurn
                },
            ]
        );
    }

    #[test]
    fn length_mid_arguments_is_truncated() {
        let mut decoder = OpenAiDecoder::new();
        let events = feed(
            &mut decoder,
            &[
                chunk(
                    json!({"tool_calls":[{"index":0,"id":"c1","function":{"name":"write","arguments":"{\"a\":"}}]}),
                    None,
                ),
                chunk(json!({}), Some("length")),
            ],
        );
        assert!(events.iter().any(|e| matches!(
            e,
            ProviderEvent::ToolCallEnd {
                arguments: ToolArguments::Truncated { .. },
                ..
            }
        )));
        let end = decoder.on_end().unwrap();
        assert_eq!(
            end,
            vec![ProviderEvent::Stop {
                reason: StopReason::MaxTokens
            }]
        );
    }

    #[test]
    fn in_stream_error_objects_and_early_end() {
        let mut decoder = OpenAiDecoder::new();
        let err = decoder
            .on_event(
                "",
                r#"{"error":{"message":"model not loaded","type":"server_error"}}"#,
            )
            .unwrap_err();
        assert!(err.to_string().contains("model not loaded"));
        let mut decoder = OpenAiDecoder::new();
        feed(&mut decoder, &[chunk(json!({"content":"par"}), None)]);
        assert!(matches!(
            decoder.on_end(),
            Err(ProviderError::StreamInterrupted { .. })
        ));
    }
}
