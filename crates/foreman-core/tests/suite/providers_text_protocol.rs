//! The text protocol over a real (scripted) OpenAI-compatible stream: prose answers, fenced and
//! bare calls streamed as partial calls, escape repair, unknown actions, and the request it sends.

use std::sync::Arc;
use std::time::Duration;

use foreman_core::providers::keys::no_key;
use foreman_core::providers::{
    Collected, HttpSettings, Message, OpenAiConfig, OpenAiProvider, Provider, ProviderError,
    ProviderEvent, ProviderRequest, RetryPolicy, StopReason, TextProtocolProvider, ToolArguments,
    ToolDefinition, collect,
};
use foreman_core::testing::sse_server::{ScriptedResponse, ScriptedServer, Split};
use futures_util::StreamExt;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::common::serve;

const CATALOGUE: &str = "## read_file\nRead a file.\n\n## grep\nSearch files.";

/// An OpenAI stream that sends `pieces` as content deltas.
fn content_stream(pieces: &[&str]) -> String {
    let mut body = String::new();
    for piece in pieces {
        let chunk =
            json!({"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]});
        body.push_str(&format!("data: {chunk}\n\n"));
    }
    body.push_str(
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
    );
    body.push_str(
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":9}}\n\n",
    );
    body.push_str("data: [DONE]\n\n");
    body
}

fn provider(server: &ScriptedServer) -> TextProtocolProvider {
    let http = HttpSettings {
        retry: RetryPolicy::none(),
        idle_timeout: Duration::from_secs(5),
        ..HttpSettings::default()
    };
    let inner = OpenAiProvider::new(
        OpenAiConfig::new(format!("{}/v1", server.url()), no_key()).with_http(http),
    )
    .unwrap();
    TextProtocolProvider::new(Arc::new(inner), CATALOGUE)
}

fn tool(name: &str) -> ToolDefinition {
    ToolDefinition {
        name: name.into(),
        description: String::new(),
        input_schema: json!({"type": "object"}),
    }
}

fn request() -> ProviderRequest {
    ProviderRequest::new(
        "llama3.2",
        "You are Foreman.",
        vec![Message::user("Find main")],
    )
    .with_tools(vec![tool("read_file"), tool("grep")])
}

async fn run(pieces: &[&str]) -> (Vec<ProviderEvent>, Collected, ScriptedServer) {
    let server = serve(vec![
        ScriptedResponse::sse(content_stream(pieces)).split(Split::Every(17)),
    ])
    .await;
    let items: Vec<Result<ProviderEvent, ProviderError>> = provider(&server)
        .stream(request(), CancellationToken::new())
        .collect()
        .await;
    let events: Vec<ProviderEvent> = items.into_iter().map(|item| item.unwrap()).collect();
    let mut collected = Collected::default();
    for event in &events {
        collected.apply(event);
    }
    (events, collected, server)
}

#[tokio::test]
async fn plain_text_is_a_direct_answer() {
    let (events, collected, server) = run(&["main is in ", "src/main.rs."]).await;
    assert_eq!(collected.text, "main is in src/main.rs.");
    assert!(collected.tool_calls.is_empty());
    assert_eq!(collected.stop, Some(StopReason::EndTurn));
    assert!(events.iter().any(|e| matches!(e, ProviderEvent::Usage(_))));

    let body = server.requests()[0].json();
    assert!(
        body.get("tools").is_none(),
        "the text protocol sends no native tools"
    );
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(system.starts_with("You are Foreman."));
    assert!(system.contains("\"action\""));
    assert!(system.contains(CATALOGUE));
}

#[tokio::test]
async fn a_fenced_call_streams_as_a_partial_call() {
    let (events, collected, _server) = run(&[
        "Let me search.\n``",
        "`json\n{\"action\": \"gr",
        "ep\", \"pattern\": \"fn main\\\\(",
        "\"}\n```",
    ])
    .await;
    assert_eq!(collected.text, "Let me search.\n");
    assert_eq!(collected.tool_calls.len(), 1);
    let call = &collected.tool_calls[0];
    assert_eq!(call.name, "grep");
    assert_eq!(
        call.raw_arguments,
        "{\"action\": \"grep\", \"pattern\": \"fn main\\\\(\"}"
    );
    assert_eq!(
        call.arguments,
        Some(ToolArguments::Parsed(json!({"pattern": "fn main\\("})))
    );
    assert_eq!(collected.stop, Some(StopReason::ToolUse));
    // The call started before the stream was over.
    let start = events
        .iter()
        .position(|e| matches!(e, ProviderEvent::ToolCallStart { .. }))
        .unwrap();
    let args = events
        .iter()
        .position(|e| matches!(e, ProviderEvent::ToolCallArgsDelta { .. }))
        .unwrap();
    let end = events
        .iter()
        .position(|e| matches!(e, ProviderEvent::ToolCallEnd { .. }))
        .unwrap();
    assert!(start < args && args < end);
    assert!(
        events
            .iter()
            .filter(|e| matches!(e, ProviderEvent::ToolCallArgsDelta { .. }))
            .count()
            >= 2
    );
}

#[tokio::test]
async fn a_bare_call_with_illegal_escapes_is_repaired() {
    let (_, collected, _server) =
        run(&["{\"action\": \"grep\", \"pattern\": \"a\\;b\\:c\"}"]).await;
    assert_eq!(
        collected.tool_calls[0].arguments,
        Some(ToolArguments::Parsed(json!({"pattern": "a\\;b\\:c"})))
    );
}

#[tokio::test]
async fn an_unknown_action_tells_the_model_which_tools_exist() {
    let (_, collected, _server) = run(&["{\"action\": \"rm_rf\", \"path\": \"/\"}"]).await;
    let Some(ToolArguments::Invalid { message, .. }) = &collected.tool_calls[0].arguments else {
        panic!("expected an invalid call: {collected:?}");
    };
    assert!(message.contains("Unknown action `rm_rf`"));
    assert!(message.contains("read_file, grep"));
}

#[tokio::test]
async fn the_conversation_is_sent_as_protocol_text() {
    let server = serve(vec![ScriptedResponse::sse(content_stream(&["done"]))]).await;
    let request = ProviderRequest::new(
        "llama3.2",
        "",
        vec![
            Message::user("read it"),
            Message::assistant_with_calls(
                "",
                vec![foreman_core::providers::ToolCall {
                    id: "textcall_1".into(),
                    name: "read_file".into(),
                    arguments: json!({"path": "a.txt"}),
                }],
            ),
            Message::tool_result("textcall_1", "hello", false),
        ],
    )
    .with_tools(vec![tool("read_file")]);
    let (collected, error) =
        collect(provider(&server).stream(request, CancellationToken::new())).await;
    assert_eq!(error, None);
    assert_eq!(collected.text, "done");
    let messages = server.requests()[0].json()["messages"].clone();
    assert_eq!(messages[2]["role"], "assistant");
    assert_eq!(
        messages[2]["content"],
        "```json\n{\"action\":\"read_file\",\"path\":\"a.txt\"}\n```"
    );
    assert_eq!(
        messages[3],
        json!({"role": "user", "content": "Result of `read_file`:\nhello"})
    );
}

#[tokio::test]
async fn text_held_back_is_kept_when_the_connection_drops() {
    // The answer breaks off while the text protocol is still deciding whether a call begins.
    let said = "Let me search.\n```json\n{\"act";
    let mut body = String::new();
    for piece in ["Let me search.\n", "```json\n", "{\"act"] {
        let chunk =
            json!({"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]});
        body.push_str(&format!("data: {chunk}\n\n"));
    }
    let server = serve(vec![
        ScriptedResponse::sse(body.clone())
            .split(Split::Every(17))
            .drop_after(body.len()),
    ])
    .await;
    let items: Vec<Result<ProviderEvent, ProviderError>> = provider(&server)
        .stream(request(), CancellationToken::new())
        .collect()
        .await;
    let (last, events) = items.split_last().unwrap();
    assert!(
        matches!(last, Err(ProviderError::StreamInterrupted { .. })),
        "{last:?}"
    );
    let mut collected = Collected::default();
    for event in events {
        collected.apply(event.as_ref().unwrap());
    }
    assert_eq!(collected.text, said);
    assert!(collected.tool_calls.is_empty());
}
