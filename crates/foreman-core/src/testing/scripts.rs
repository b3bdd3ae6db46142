//! Builders for scripted model responses (SSE bodies) in both wire formats, so session tests
//! read as "the model says this, then calls that".

use serde_json::{Value, json};

use crate::providers::Usage;

/// One step the scripted model takes.
#[derive(Debug, Clone)]
pub enum Step {
    Text(String),
    /// A tool call: id, name, arguments (sent as JSON text in `pieces` fragments).
    Call {
        id: String,
        name: String,
        arguments: Value,
    },
}

/// Text the model says.
pub fn text(t: &str) -> Step {
    Step::Text(t.to_owned())
}

/// A tool call the model makes.
pub fn call(id: &str, name: &str, arguments: Value) -> Step {
    Step::Call {
        id: id.to_owned(),
        name: name.to_owned(),
        arguments,
    }
}

fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(size.max(1))
        .map(|c| c.iter().collect())
        .collect()
}

fn sse(event: Option<&str>, data: &Value) -> String {
    match event {
        Some(e) => format!("event: {e}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// An Anthropic Messages stream of `steps`, arguments split into `chunk`-character fragments;
/// the request reports 10 input and 5 output tokens.
pub fn anthropic(steps: &[Step], chunk: usize) -> String {
    anthropic_with_usage(
        steps,
        chunk,
        Usage {
            input: 10,
            output: 5,
            cache_read: 0,
            cache_write: 0,
        },
    )
}

/// [`anthropic`] reporting `usage` the way the Messages API does: input and cache tokens in
/// `message_start`, the output tokens in the closing `message_delta`.
pub fn anthropic_with_usage(steps: &[Step], chunk: usize, usage: Usage) -> String {
    let mut start_usage = json!({"input_tokens": usage.input, "output_tokens": 1});
    if usage.cache_read > 0 || usage.cache_write > 0 {
        start_usage["cache_read_input_tokens"] = json!(usage.cache_read);
        start_usage["cache_creation_input_tokens"] = json!(usage.cache_write);
    }
    let mut out = sse(
        Some("message_start"),
        &json!({"type": "message_start", "message": {"usage": start_usage}}),
    );
    let mut has_calls = false;
    for (index, step) in steps.iter().enumerate() {
        match step {
            Step::Text(t) => {
                out += &sse(
                    Some("content_block_start"),
                    &json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
                );
                out += &sse(
                    Some("content_block_delta"),
                    &json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": t}}),
                );
            }
            Step::Call {
                id,
                name,
                arguments,
            } => {
                has_calls = true;
                out += &sse(
                    Some("content_block_start"),
                    &json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
                );
                for piece in pieces(&arguments.to_string(), chunk) {
                    out += &sse(
                        Some("content_block_delta"),
                        &json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}),
                    );
                }
            }
        }
        out += &sse(
            Some("content_block_stop"),
            &json!({"type": "content_block_stop", "index": index}),
        );
    }
    let stop = if has_calls { "tool_use" } else { "end_turn" };
    out += &sse(
        Some("message_delta"),
        &json!({"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": usage.output}}),
    );
    out += &sse(Some("message_stop"), &json!({"type": "message_stop"}));
    out
}

/// An OpenAI Chat Completions stream of `steps`.
pub fn openai(steps: &[Step], chunk: usize) -> String {
    let chunk_of = |delta: Value, finish: Option<&str>| {
        sse(
            None,
            &json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
        )
    };
    let mut out = chunk_of(json!({"role": "assistant", "content": ""}), None);
    let mut call_index = 0;
    for step in steps {
        match step {
            Step::Text(t) => out += &chunk_of(json!({"content": t}), None),
            Step::Call {
                id,
                name,
                arguments,
            } => {
                out += &chunk_of(
                    json!({"tool_calls": [{"index": call_index, "id": id, "type": "function", "function": {"name": name, "arguments": ""}}]}),
                    None,
                );
                for piece in pieces(&arguments.to_string(), chunk) {
                    out += &chunk_of(
                        json!({"tool_calls": [{"index": call_index, "function": {"arguments": piece}}]}),
                        None,
                    );
                }
                call_index += 1;
            }
        }
    }
    let finish = if call_index > 0 { "tool_calls" } else { "stop" };
    out += &chunk_of(json!({}), Some(finish));
    out += &sse(
        None,
        &json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}),
    );
    out += "data: [DONE]\n\n";
    out
}
