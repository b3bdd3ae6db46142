//! Both native providers against the scripted SSE server on 127.0.0.1: wire requests, fixture
//! streams, every failure and retry case, timeouts and cancellation.

use std::sync::Arc;
use std::time::{Duration, Instant};

use foreman_core::providers::keys::{no_key, static_key};
use foreman_core::providers::recording::recording_body;
use foreman_core::providers::{
    AnthropicConfig, AnthropicProvider, Collected, EnvKey, EventStream, HttpSettings, Message,
    OpenAiConfig, OpenAiProvider, Provider, ProviderError, ProviderEvent, ProviderRequest,
    ReplayProvider, RetryPolicy, StopReason, ToolArguments, ToolDefinition, Usage, WireFormat,
    collect,
};
use foreman_core::testing::sse_server::{ScriptedResponse, ScriptedServer, Split};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::common::serve;

const KEY: &str = "sk-test-SECRET-0123456789";

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(path).unwrap();
    recording_body(&bytes).to_vec()
}

fn settings(max_attempts: u32) -> HttpSettings {
    HttpSettings {
        connect_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_secs(5),
        retry: RetryPolicy {
            max_attempts,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(20),
            max_retry_after: Duration::from_secs(2),
            jitter: 0.5,
        },
        record_to: None,
    }
}

fn anthropic(server: &ScriptedServer, http: HttpSettings) -> AnthropicProvider {
    AnthropicProvider::new(
        AnthropicConfig::new(static_key(KEY))
            .with_base_url(server.url())
            .with_http(http),
    )
    .unwrap()
}

fn openai(server: &ScriptedServer, http: HttpSettings) -> OpenAiProvider {
    OpenAiProvider::new(
        OpenAiConfig::new(format!("{}/v1", server.url()), static_key(KEY)).with_http(http),
    )
    .unwrap()
}

fn request() -> ProviderRequest {
    ProviderRequest::new(
        "test-model",
        "You are a test.",
        vec![Message::user("Weather in Paris?")],
    )
    .with_tools(vec![ToolDefinition {
        name: "get_weather".into(),
        description: "Current weather".into(),
        input_schema: json!({"type": "object", "properties": {"location": {"type": "string"}}}),
    }])
}

async fn run(provider: &dyn Provider) -> (Collected, Option<ProviderError>) {
    collect(provider.stream(request(), CancellationToken::new())).await
}

fn anthropic_text_stream(text: &str) -> String {
    format!(
        "event: message_start\ndata: {{\"type\":\"message_start\",\"message\":{{\"usage\":{{\"input_tokens\":5,\"output_tokens\":1}}}}}}\n\n\
         event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"text\",\"text\":\"\"}}}}\n\n\
         event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":{}}}}}\n\n\
         event: content_block_stop\ndata: {{\"type\":\"content_block_stop\",\"index\":0}}\n\n\
         event: message_delta\ndata: {{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"end_turn\"}},\"usage\":{{\"output_tokens\":3}}}}\n\n\
         event: message_stop\ndata: {{\"type\":\"message_stop\"}}\n\n",
        serde_json::to_string(text).unwrap()
    )
}

fn assert_no_key(text: &str) {
    assert!(!text.contains(KEY), "the key leaked: {text}");
}

// ---------- Anthropic ----------

#[tokio::test]
async fn anthropic_fixture_through_the_server_in_small_pieces() {
    let server = serve(vec![
        ScriptedResponse::sse(fixture("anthropic-tool-use.sse")).split(Split::Every(7)),
    ])
    .await;
    let (collected, error) = run(&anthropic(&server, settings(1))).await;
    assert_eq!(error, None);
    assert_eq!(
        collected.text,
        "I'll check the current weather in Paris for you."
    );
    assert_eq!(collected.tool_calls.len(), 1);
    let call = &collected.tool_calls[0];
    assert_eq!(call.name, "get_weather");
    assert_eq!(call.id, "toolu_01NRLabsLyVHZPKxbKvkfSMn");
    assert_eq!(
        call.arguments,
        Some(ToolArguments::Parsed(json!({"location": "Paris"})))
    );
    assert_eq!(collected.stop, Some(StopReason::ToolUse));
    assert_eq!(
        collected.usage,
        Some(Usage {
            input: 377,
            output: 65,
            cache_read: 0,
            cache_write: 0
        })
    );

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let sent = &requests[0];
    assert_eq!(sent.method, "POST");
    assert_eq!(sent.path, "/v1/messages");
    assert_eq!(sent.header("x-api-key"), Some(KEY));
    assert_eq!(sent.header("anthropic-version"), Some("2023-06-01"));
    let body = sent.json();
    assert_eq!(body["stream"], true);
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["system"][0]["cache_control"]["type"], "ephemeral");
    assert_eq!(body["tools"][0]["cache_control"]["type"], "ephemeral");
    assert_eq!(
        body["messages"][0]["content"][0]["text"],
        "Weather in Paris?"
    );
}

/// A tool-use turn with extended thinking: a signed thinking block, a redacted one, text and a
/// call, as the Messages API streams them.
fn anthropic_thinking_stream() -> String {
    let events = [
        json!({"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}),
        json!({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}),
        json!({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants "}}),
        json!({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"the weather."}}),
        json!({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}}),
        json!({"type":"content_block_stop","index":0}),
        json!({"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj"}}),
        json!({"type":"content_block_stop","index":1}),
        json!({"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}),
        json!({"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Checking."}}),
        json!({"type":"content_block_stop","index":2}),
        json!({"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}),
        json!({"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"location\": \"Paris\"}"}}),
        json!({"type":"content_block_stop","index":3}),
        json!({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":40}}),
        json!({"type":"message_stop"}),
    ];
    events
        .iter()
        .map(|event| {
            format!(
                "event: {}\ndata: {event}\n\n",
                event["type"].as_str().unwrap()
            )
        })
        .collect()
}

#[tokio::test]
async fn thinking_blocks_signed_and_redacted_are_sent_back_unchanged() {
    let server = serve(vec![
        ScriptedResponse::sse(anthropic_thinking_stream()).split(Split::Every(11)),
        ScriptedResponse::sse(anthropic_text_stream("Sunny.")),
    ])
    .await;
    let provider = anthropic(&server, settings(1));
    let (first, error) = run(&provider).await;
    assert_eq!(error, None);
    assert_eq!(first.stop, Some(StopReason::ToolUse));
    assert_eq!(first.thinking, "The user wants the weather.");

    let conversation = vec![
        Message::user("Weather in Paris?"),
        first.assistant_message(),
        Message::tool_result("toolu_1", "18 °C, sunny", false),
    ];
    let follow_up = ProviderRequest::new("test-model", "You are a test.", conversation);
    let (second, error) = collect(provider.stream(follow_up, CancellationToken::new())).await;
    assert_eq!(error, None);
    assert_eq!(second.text, "Sunny.");

    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let messages = &requests[1].json()["messages"];
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(
        messages[1]["content"],
        json!([
            {"type": "thinking", "thinking": "The user wants the weather.",
             "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"},
            {"type": "redacted_thinking",
             "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj"},
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"location": "Paris"}},
        ])
    );
    assert_eq!(messages[2]["content"][0]["tool_use_id"], "toolu_1");
}

/// A listener on 127.0.0.1 whose accept queue is full: further SYNs are dropped by the kernel, so
/// a connect to it hangs until the client gives up. Returns the port and what must stay alive.
async fn listener_with_a_full_backlog() -> (u16, Vec<impl Sized>) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listener = socket.listen(0).unwrap();
    let addr = listener.local_addr().unwrap();
    let mut held = Vec::new();
    for _ in 0..16 {
        let probe = tokio::time::timeout(
            Duration::from_millis(300),
            tokio::net::TcpStream::connect(addr),
        )
        .await;
        match probe {
            Ok(Ok(stream)) => held.push(stream),
            // A connect that hangs: the queue is full.
            Err(_) => return (addr.port(), vec![(listener, held)]),
            Ok(Err(err)) => panic!("probe connect failed: {err}"),
        }
    }
    panic!("the accept queue never filled");
}

#[tokio::test]
async fn the_connect_timeout_fires() {
    let (port, _held) = listener_with_a_full_backlog().await;
    let mut http = settings(1);
    http.connect_timeout = Duration::from_millis(400);
    let provider = AnthropicProvider::new(
        AnthropicConfig::new(static_key(KEY))
            .with_base_url(format!("http://127.0.0.1:{port}"))
            .with_http(http),
    )
    .unwrap();
    let started = Instant::now();
    let (collected, error) = run(&provider).await;
    let took = started.elapsed();
    assert!(
        matches!(
            error,
            Some(ProviderError::ConnectTimeout { timeout, .. }) if timeout == Duration::from_millis(400)
        ),
        "{error:?}"
    );
    assert!(collected.text.is_empty());
    assert!(took >= Duration::from_millis(380), "gave up after {took:?}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
}

#[tokio::test]
async fn anthropic_529_is_retried_with_an_announcement() {
    let server = serve(vec![
        ScriptedResponse::json(
            529,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        ),
        ScriptedResponse::json(500, r#"{"error":{"message":"oops"}}"#),
        ScriptedResponse::sse(anthropic_text_stream("Bonjour")),
    ])
    .await;
    let (collected, error) = run(&anthropic(&server, settings(5))).await;
    assert_eq!(error, None);
    assert_eq!(collected.text, "Bonjour");
    assert_eq!(collected.retries.len(), 2);
    assert_eq!(collected.retries[0].attempt, 2);
    assert_eq!(collected.retries[0].max_attempts, 5);
    assert!(
        collected.retries[0].reason.contains("529"),
        "{:?}",
        collected.retries[0]
    );
    assert!(collected.retries[0].message().starts_with("Retrying in "));
    assert!(collected.retries[0].message().contains("attempt 2 of 5"));
    assert_eq!(collected.retries[1].attempt, 3);
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn retry_after_is_honoured() {
    let server = serve(vec![
        ScriptedResponse::json(
            429,
            r#"{"error":{"type":"rate_limit_error","message":"slow down"}}"#,
        )
        .header("retry-after", "1"),
        ScriptedResponse::sse(anthropic_text_stream("ok")),
    ])
    .await;
    let started = Instant::now();
    let (collected, error) = run(&anthropic(&server, settings(3))).await;
    assert_eq!(error, None);
    assert_eq!(collected.retries[0].delay, Duration::from_secs(1));
    assert!(
        collected.retries[0]
            .message()
            .starts_with("Retrying in 1 s, attempt 2 of 3")
    );
    assert!(started.elapsed() >= Duration::from_secs(1));
}

#[tokio::test]
async fn persistent_overload_gives_up_after_the_configured_attempts() {
    let overloaded = ScriptedResponse::json(529, r#"{"error":{"message":"Overloaded"}}"#);
    let server = serve(vec![overloaded.clone(), overloaded.clone(), overloaded]).await;
    let (collected, error) = run(&anthropic(&server, settings(3))).await;
    assert_eq!(collected.retries.len(), 2);
    assert!(
        matches!(
            &error,
            Some(ProviderError::Unavailable {
                status: 529,
                attempts: 3,
                ..
            })
        ),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn unauthorized_is_not_retried_and_points_to_the_key_setting() {
    let body = format!(
        r#"{{"type":"error","error":{{"type":"authentication_error","message":"invalid x-api-key {KEY}"}}}}"#
    );
    let server = serve(vec![ScriptedResponse::json(401, &body)]).await;
    let (collected, error) = run(&anthropic(&server, settings(5))).await;
    let error = error.unwrap();
    assert!(
        matches!(error, ProviderError::Auth { status: 401, .. }),
        "{error:?}"
    );
    let shown = error.to_string();
    assert!(shown.contains("API key setting"), "{shown}");
    assert_no_key(&shown);
    assert_no_key(&format!("{error:?}"));
    assert!(collected.retries.is_empty());
    assert_eq!(server.requests().len(), 1);

    let forbidden = serve(vec![ScriptedResponse::json(403, "{}")]).await;
    let (_, error) = run(&openai(&forbidden, settings(5))).await;
    assert!(
        matches!(error, Some(ProviderError::Auth { status: 403, .. })),
        "{error:?}"
    );
    assert_eq!(forbidden.requests().len(), 1);
}

#[tokio::test]
async fn a_rejected_key_from_the_environment_names_the_variable_and_offers_no_retry() {
    // SAFETY (for `take`): the variable is unset and only this test names it.
    // The variable is unset, so the OpenAI-compatible client (whose key is optional, for local
    // servers) sends no key at all, and the server refuses.
    let var = "FOREMAN_TEST_UNSET_PROVIDER_KEY";
    let server = serve(vec![ScriptedResponse::json(401, "{}")]).await;
    let provider = OpenAiProvider::new(
        OpenAiConfig::new(
            format!("{}/v1", server.url()),
            Arc::new(unsafe { EnvKey::take(var) }),
        )
        .with_http(settings(5)),
    )
    .unwrap();
    let (_, error) = run(&provider).await;
    let error = error.unwrap();
    assert!(
        error
            .to_string()
            .ends_with("Check the FOREMAN_TEST_UNSET_PROVIDER_KEY environment variable."),
        "{error}"
    );
    // Nothing outside the process can change the variable: asking again cannot help.
    assert!(!error.user_may_retry());
}

#[tokio::test]
async fn context_length_errors_are_their_own_kind() {
    let server = serve(vec![ScriptedResponse::json(
        400,
        r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}}"#,
    )]).await;
    let (_, error) = run(&anthropic(&server, settings(3))).await;
    assert!(
        matches!(error, Some(ProviderError::ContextLength { .. })),
        "{error:?}"
    );

    let server = serve(vec![ScriptedResponse::json(
        400,
        r#"{"error":{"message":"This model's maximum context length is 8192 tokens.","code":"context_length_exceeded"}}"#,
    )]).await;
    let (_, error) = run(&openai(&server, settings(3))).await;
    assert!(
        matches!(error, Some(ProviderError::ContextLength { .. })),
        "{error:?}"
    );

    let server = serve(vec![ScriptedResponse::json(
        404,
        r#"{"error":{"message":"no such model"}}"#,
    )])
    .await;
    let (_, error) = run(&openai(&server, settings(3))).await;
    assert!(
        matches!(
            error,
            Some(ProviderError::InvalidRequest { status: 404, .. })
        ),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn openai_reasoning_empty_tool_call_arrays_and_a_stop_finish_reason_over_http() {
    let chunks = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": "Think"}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {"reasoning_content": "ing."}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {"content": "Looking.", "tool_calls": []}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "read", "arguments": ""}}]}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": []}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"path\":"}}]}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": " \"a.rs\"}"}}]}, "finish_reason": null}]}),
        // Some servers say "stop" although a tool was called.
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        json!({"choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 7}}),
    ];
    let mut body: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    body.push_str("data: [DONE]\n\n");
    for split in [Split::Whole, Split::Every(7)] {
        let server = serve(vec![ScriptedResponse::sse(body.clone()).split(split)]).await;
        let (collected, error) = run(&openai(&server, settings(1))).await;
        assert_eq!(error, None);
        assert_eq!(collected.thinking, "Thinking.");
        assert_eq!(collected.text, "Looking.");
        // The empty arrays made no call; the one call has its id and name from its first delta.
        assert_eq!(collected.tool_calls.len(), 1, "{:?}", collected.tool_calls);
        let call = &collected.tool_calls[0];
        assert_eq!((call.id.as_str(), call.name.as_str()), ("call_1", "read"));
        assert_eq!(
            call.arguments,
            Some(ToolArguments::Parsed(json!({"path": "a.rs"})))
        );
        assert_eq!(collected.stop, Some(StopReason::ToolUse));
    }
}

#[tokio::test]
async fn anthropic_calls_without_arguments_and_with_invalid_json_over_http() {
    let event = |data: Value| {
        let name = data["type"].as_str().unwrap().to_owned();
        format!("event: {name}\ndata: {data}\n\n")
    };
    let tool_block = |index: u32, id: &str, name: &str| {
        json!({"type": "content_block_start", "index": index,
               "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}})
    };
    let args = |index: u32, partial: &str| {
        json!({"type": "content_block_delta", "index": index,
               "delta": {"type": "input_json_delta", "partial_json": partial}})
    };
    let stop = |index: u32| json!({"type": "content_block_stop", "index": index});
    let body: String = [
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 9, "output_tokens": 1}}}),
        tool_block(0, "toolu_1", "list_files"),
        args(0, ""),
        stop(0),
        tool_block(1, "toolu_2", "read"),
        args(1, "{\"path\": \"a.rs\""),
        args(1, ", }"),
        stop(1),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 20}}),
        json!({"type": "message_stop"}),
    ]
    .into_iter()
    .map(event)
    .collect();
    let server = serve(vec![ScriptedResponse::sse(body).split(Split::Every(5))]).await;
    let (collected, error) = run(&anthropic(&server, settings(1))).await;
    assert_eq!(error, None);
    assert_eq!(collected.tool_calls.len(), 2);
    // No arguments at all (`partial_json: ""` only): `{}`.
    assert_eq!(
        collected.tool_calls[0].arguments,
        Some(ToolArguments::Parsed(json!({})))
    );
    // Invalid JSON: reported as such, for the model, not run and not a crash.
    let invalid = collected.tool_calls[1].arguments.clone().unwrap();
    let message = invalid.into_result().unwrap_err().to_string();
    assert!(message.starts_with("InvalidParams: "), "{message}");
    assert_eq!(collected.stop, Some(StopReason::ToolUse));
}

#[tokio::test]
async fn a_prompt_too_long_is_known_by_its_code_and_inside_the_stream() {
    // Groq: the code says it, the message does not.
    let groq = r#"{"error":{"message":"Please shorten the input.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#;
    let server = serve(vec![ScriptedResponse::json(400, groq)]).await;
    let (_, error) = run(&openai(&server, settings(3))).await;
    assert!(
        matches!(error, Some(ProviderError::ContextLength { .. })),
        "{error:?}"
    );
    // llama.cpp's server.
    let llama = r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}"#;
    let server = serve(vec![ScriptedResponse::json(400, llama)]).await;
    let (_, error) = run(&openai(&server, settings(3))).await;
    assert!(
        matches!(error, Some(ProviderError::ContextLength { .. })),
        "{error:?}"
    );
    // An error event inside a 200 stream, before any output: the loop compacts and retries.
    let anthropic_event = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 210000 tokens > 200000 maximum\"}}\n\n";
    let server = serve(vec![ScriptedResponse::sse(anthropic_event)]).await;
    let (_, error) = run(&anthropic(&server, settings(3))).await;
    assert!(
        matches!(error, Some(ProviderError::ContextLength { .. })),
        "{error:?}"
    );
    let openai_chunk =
        "data: {\"error\":{\"message\":\"too long\",\"code\":\"context_length_exceeded\"}}\n\n";
    let server = serve(vec![ScriptedResponse::sse(openai_chunk)]).await;
    let (_, error) = run(&openai(&server, settings(3))).await;
    assert!(
        matches!(error, Some(ProviderError::ContextLength { .. })),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_key_echoed_in_an_error_inside_the_stream_is_scrubbed() {
    let anthropic_event = format!(
        "event: error\ndata: {{\"type\":\"error\",\"error\":{{\"type\":\"authentication_error\",\"message\":\"bad key {KEY}\"}}}}\n\n"
    );
    let openai_chunk =
        format!("data: {{\"error\":{{\"message\":\"bad key {KEY}\",\"type\":\"{KEY}\"}}}}\n\n");
    for (kind, body) in [
        (Kind::Anthropic, anthropic_event),
        (Kind::OpenAi, openai_chunk),
    ] {
        let server = serve(vec![ScriptedResponse::sse(body)]).await;
        let (_, error) = run(provider(kind, &server, settings(1)).as_ref()).await;
        let error = error.unwrap();
        assert!(error.to_string().contains("bad key [REDACTED]"), "{error}");
        assert_no_key(&error.to_string());
        assert_no_key(&format!("{error:?}"));
    }
}

#[tokio::test]
async fn a_body_that_ends_in_the_middle_of_an_event_was_cut_off() {
    // The server closes the response properly, but in the middle of an event: after output,
    // the answer was interrupted (not "malformed data"), and what arrived is kept.
    for kind in [Kind::Anthropic, Kind::OpenAi] {
        let full = text_stream(kind, "all of it");
        let first_event = full.find("\n\n").unwrap() + 2;
        let content = full.find("all of it").unwrap();
        let after = full[content..].find("\n\n").unwrap() + content + 2;
        // Ten bytes into the next event's data: `data: {"t` is not JSON.
        let cut = full[after..].find("data: ").unwrap() + after + 10;
        assert!(cut > first_event && cut < full.len());
        let server = serve(vec![ScriptedResponse::sse(&full[..cut])]).await;
        let (collected, error) = run(provider(kind, &server, settings(3)).as_ref()).await;
        assert_eq!(collected.text, "all of it", "{kind:?}");
        assert!(
            matches!(error, Some(ProviderError::StreamInterrupted { .. })),
            "{kind:?}: {error:?}"
        );
        assert_eq!(server.requests().len(), 1);
    }
}

#[tokio::test]
async fn a_drop_after_output_keeps_what_arrived_and_is_not_retried() {
    let body = fixture("anthropic-tool-use.sse");
    let cut = String::from_utf8_lossy(&body)
        .find("\"partial_json\":\"ar\"")
        .unwrap();
    let server = serve(vec![
        ScriptedResponse::sse(body.clone())
            .split(Split::Every(50))
            .drop_after(cut),
        ScriptedResponse::sse(body),
    ])
    .await;
    let (collected, error) = run(&anthropic(&server, settings(5))).await;
    assert_eq!(
        collected.text,
        "I'll check the current weather in Paris for you."
    );
    assert_eq!(collected.tool_calls.len(), 1);
    assert_eq!(collected.tool_calls[0].raw_arguments, "{\"location\": \"P");
    assert_eq!(
        collected.tool_calls[0].arguments, None,
        "an unfinished call never ends"
    );
    let error = error.unwrap();
    assert!(
        matches!(error, ProviderError::StreamInterrupted { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("you can retry"));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_reset_before_the_first_byte_is_retried() {
    let server = serve(vec![
        ScriptedResponse::reset(),
        ScriptedResponse::sse(anthropic_text_stream("second time lucky")),
    ])
    .await;
    let (collected, error) = run(&anthropic(&server, settings(3))).await;
    assert_eq!(error, None);
    assert_eq!(collected.text, "second time lucky");
    assert_eq!(collected.retries.len(), 1);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_drop_before_any_output_is_retried() {
    let server = serve(vec![
        ScriptedResponse::sse(anthropic_text_stream("lost")).drop_after(10),
        ScriptedResponse::sse(anthropic_text_stream("kept")),
    ])
    .await;
    let (collected, error) = run(&anthropic(&server, settings(3))).await;
    assert_eq!(error, None);
    assert_eq!(collected.text, "kept");
    assert_eq!(collected.retries.len(), 1);
}

#[tokio::test]
async fn connection_refused_is_retried_then_reported() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let provider = OpenAiProvider::new(
        OpenAiConfig::new(format!("http://127.0.0.1:{port}/v1"), no_key()).with_http(settings(3)),
    )
    .unwrap();
    let (collected, error) = run(&provider).await;
    assert_eq!(collected.retries.len(), 2);
    assert!(collected.retries[0].message().contains("attempt 2 of 3"));
    assert!(
        matches!(error, Some(ProviderError::Connect { attempts: 3, .. })),
        "{error:?}"
    );
}

#[tokio::test]
async fn an_error_event_before_output_is_retried_and_after_output_is_reported() {
    let overloaded = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let server = serve(vec![
        ScriptedResponse::sse(overloaded),
        ScriptedResponse::sse(anthropic_text_stream("fine")),
    ])
    .await;
    let (collected, error) = run(&anthropic(&server, settings(3))).await;
    assert_eq!(error, None);
    assert_eq!(collected.text, "fine");

    let partial = anthropic_text_stream("half");
    let cut = partial.find("event: content_block_stop").unwrap();
    let server = serve(vec![ScriptedResponse::sse(format!(
        "{}{overloaded}",
        &partial[..cut]
    ))])
    .await;
    let (collected, error) = run(&anthropic(&server, settings(3))).await;
    assert_eq!(collected.text, "half");
    assert!(
        matches!(&error, Some(ProviderError::Api { kind, .. }) if kind == "overloaded_error"),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn max_tokens_mid_tool_call_is_truncated_over_http() {
    let stream = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t9\",\"name\":\"get_weather\",\"input\":{}}}\n\n\
        event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"location\\\": \\\"Pa\"}}\n\n\
        event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n\
        event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":64}}\n\n\
        event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let server = serve(vec![ScriptedResponse::sse(stream).split(Split::Every(3))]).await;
    let (collected, error) = run(&anthropic(&server, settings(1))).await;
    assert_eq!(error, None);
    let arguments = collected.tool_calls[0].arguments.clone().unwrap();
    assert!(arguments.is_truncated(), "{arguments:?}");
    assert!(arguments.into_result().is_err());
    assert_eq!(collected.stop, Some(StopReason::MaxTokens));
}

#[tokio::test]
async fn a_missing_key_is_reported_without_a_request() {
    let server = serve(Vec::new()).await;
    let provider =
        AnthropicProvider::new(AnthropicConfig::new(no_key()).with_base_url(server.url())).unwrap();
    let (_, error) = run(&provider).await;
    assert!(
        matches!(error, Some(ProviderError::MissingKey { .. })),
        "{error:?}"
    );
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn an_idle_stream_times_out() {
    let body = anthropic_text_stream("slow");
    let server = serve(vec![ScriptedResponse::sse(body).stall_after(60)]).await;
    let http = HttpSettings {
        idle_timeout: Duration::from_millis(300),
        ..settings(1)
    };
    let started = Instant::now();
    let (_, error) = run(&anthropic(&server, http)).await;
    assert!(
        matches!(error, Some(ProviderError::IdleTimeout { .. })),
        "{error:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(3));

    // Silence before the response head counts too.
    let server = serve(vec![
        ScriptedResponse::sse(anthropic_text_stream("late")).initial_delay(Duration::from_secs(5)),
    ])
    .await;
    let http = HttpSettings {
        idle_timeout: Duration::from_millis(300),
        ..settings(1)
    };
    let (_, error) = run(&anthropic(&server, http)).await;
    assert!(
        matches!(error, Some(ProviderError::IdleTimeout { .. })),
        "{error:?}"
    );
}

#[tokio::test]
async fn cancellation_closes_the_connection_within_100_ms() {
    let body = anthropic_text_stream("streaming forever");
    let first_event_end = body.find("event: content_block_stop").unwrap();
    let server = serve(vec![
        ScriptedResponse::sse(body).stall_after(first_event_end),
    ])
    .await;
    let provider = anthropic(&server, settings(1));
    let cancel = CancellationToken::new();
    let mut stream: EventStream = provider.stream(request(), cancel.clone());
    let first = stream.next().await.unwrap().unwrap();
    assert_eq!(first, ProviderEvent::TextDelta("streaming forever".into()));
    let cancelled_at = Instant::now();
    cancel.cancel();
    let closed_at = server
        .wait_closed(1, Duration::from_secs(2))
        .await
        .expect("the connection was never closed");
    let took = closed_at.duration_since(cancelled_at);
    assert!(took < Duration::from_millis(100), "took {took:?}");
    let rest: Vec<_> = stream.collect().await;
    assert_eq!(rest, vec![Err(ProviderError::Cancelled)]);
}

#[tokio::test]
async fn cancellation_during_a_retry_wait_stops_at_once() {
    let server = serve(vec![
        ScriptedResponse::json(503, "{}").header("retry-after", "30"),
    ])
    .await;
    let http = HttpSettings {
        retry: RetryPolicy {
            max_retry_after: Duration::from_secs(60),
            ..settings(3).retry
        },
        ..settings(3)
    };
    let provider = anthropic(&server, http);
    let cancel = CancellationToken::new();
    let mut stream = provider.stream(request(), cancel.clone());
    let Some(Ok(ProviderEvent::Retrying(notice))) = stream.next().await else {
        panic!("expected a retry notice");
    };
    assert_eq!(notice.delay, Duration::from_secs(30));
    let started = Instant::now();
    cancel.cancel();
    assert_eq!(stream.next().await, Some(Err(ProviderError::Cancelled)));
    assert!(started.elapsed() < Duration::from_millis(100));
}

// ---------- OpenAI-compatible ----------

#[tokio::test]
async fn openai_fixture_with_parallel_calls_through_the_server() {
    let server = serve(vec![
        ScriptedResponse::sse(fixture("openai-parallel-tool-calls.sse")).split(Split::Every(13)),
    ])
    .await;
    let (collected, error) = run(&openai(&server, settings(1))).await;
    assert_eq!(error, None);
    assert_eq!(collected.tool_calls.len(), 2);
    assert_eq!(collected.tool_calls[0].name, "GetWeatherArgs");
    assert_eq!(
        collected.tool_calls[0].arguments,
        Some(ToolArguments::Parsed(
            json!({"city": "Edinburgh", "country": "UK", "units": "c"})
        ))
    );
    assert_eq!(collected.tool_calls[1].name, "get_stock_price");
    assert_eq!(
        collected.tool_calls[1].arguments,
        Some(ToolArguments::Parsed(
            json!({"ticker": "AAPL", "exchange": "NASDAQ"})
        ))
    );
    assert_eq!(collected.stop, Some(StopReason::ToolUse));
    assert_eq!(
        collected.usage,
        Some(Usage {
            input: 149,
            output: 60,
            cache_read: 0,
            cache_write: 0
        })
    );

    let sent = &server.requests()[0];
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let body = sent.json();
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(body["tools"][0]["function"]["name"], "get_weather");
}

#[tokio::test]
async fn openai_without_a_key_sends_no_authorization() {
    let stream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}\n\n\
                  data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
                  data: [DONE]\n\n";
    let server = serve(vec![ScriptedResponse::sse(stream)]).await;
    let provider = OpenAiProvider::new(
        OpenAiConfig::new(format!("{}/v1/", server.url()), no_key()).with_http(settings(1)),
    )
    .unwrap();
    let (collected, error) = run(&provider).await;
    assert_eq!(error, None);
    assert_eq!(collected.text, "hi");
    assert_eq!(collected.stop, Some(StopReason::EndTurn));
    assert_eq!(server.requests()[0].header("authorization"), None);
    assert_eq!(server.requests()[0].path, "/v1/chat/completions");
}

#[tokio::test]
async fn openai_5xx_retry_and_mid_stream_drop() {
    let body = fixture("openai-parallel-tool-calls.sse");
    let cut = String::from_utf8_lossy(&body)
        .find("get_stock_price")
        .unwrap();
    let server = serve(vec![
        ScriptedResponse::json(502, "Bad Gateway"),
        ScriptedResponse::json(504, ""),
        ScriptedResponse::sse(body).drop_after(cut),
    ])
    .await;
    let (collected, error) = run(&openai(&server, settings(4))).await;
    assert_eq!(collected.retries.len(), 2);
    assert_eq!(collected.tool_calls[0].name, "GetWeatherArgs");
    assert_eq!(
        collected.tool_calls[0].raw_arguments,
        r#"{"city": "Edinburgh", "country": "UK", "units": "c"}"#
    );
    assert!(
        matches!(error, Some(ProviderError::StreamInterrupted { .. })),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 3);
}

// ---------- Recording and replay ----------

#[tokio::test]
async fn a_recorded_stream_replays_to_the_same_events_and_hides_the_key() {
    let server = serve(vec![
        ScriptedResponse::sse(fixture("anthropic-tool-use.sse")).split(Split::Every(64)),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("0001-anthropic.sse");
    let http = HttpSettings {
        record_to: Some(dir.path().to_owned()),
        ..settings(1)
    };
    let provider = anthropic(&server, http);
    let live: Vec<_> = provider
        .stream(request(), CancellationToken::new())
        .collect()
        .await;
    let recorded = std::fs::read(&path).unwrap();
    assert_no_key(&String::from_utf8_lossy(&recorded));
    assert_eq!(
        recording_body(&recorded),
        fixture("anthropic-tool-use.sse").as_slice()
    );

    let replay = ReplayProvider::new(&path, WireFormat::Anthropic);
    let replayed: Vec<_> = replay
        .stream(request(), CancellationToken::new())
        .collect()
        .await;
    assert_eq!(replayed, live);
    assert!(
        live.iter()
            .any(|e| matches!(e, Ok(ProviderEvent::ToolCallEnd { .. })))
    );
}

#[tokio::test]
async fn debug_output_of_providers_never_shows_the_key() {
    let server = serve(Vec::new()).await;
    assert_no_key(&format!("{:?}", anthropic(&server, settings(1))));
    assert_no_key(&format!("{:?}", openai(&server, settings(1))));
}

#[tokio::test]
async fn dropping_the_stream_also_closes_the_connection() {
    let body = anthropic_text_stream("abandoned");
    let first_event_end = body.find("event: content_block_stop").unwrap();
    let server = serve(vec![
        ScriptedResponse::sse(body).stall_after(first_event_end),
    ])
    .await;
    let provider = anthropic(&server, settings(1));
    let mut stream = provider.stream(request(), CancellationToken::new());
    assert!(matches!(
        stream.next().await,
        Some(Ok(ProviderEvent::TextDelta(_)))
    ));
    let dropped_at = Instant::now();
    drop(stream);
    let closed_at = server
        .wait_closed(1, Duration::from_secs(2))
        .await
        .expect("the connection was never closed");
    assert!(closed_at.duration_since(dropped_at) < Duration::from_millis(100));
}

// ---------- The same failure cases for both providers ----------

#[derive(Debug, Clone, Copy)]
enum Kind {
    Anthropic,
    OpenAi,
}

const KINDS: [Kind; 2] = [Kind::Anthropic, Kind::OpenAi];

fn openai_text_stream(text: &str) -> String {
    let chunk =
        json!({"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]});
    format!(
        "data: {chunk}\n\n\
         data: {{\"choices\":[{{\"index\":0,\"delta\":{{}},\"finish_reason\":\"stop\"}}]}}\n\n\
         data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":4,\"completion_tokens\":2}}}}\n\n\
         data: [DONE]\n\n"
    )
}

fn text_stream(kind: Kind, text: &str) -> String {
    match kind {
        Kind::Anthropic => anthropic_text_stream(text),
        Kind::OpenAi => openai_text_stream(text),
    }
}

fn provider(kind: Kind, server: &ScriptedServer, http: HttpSettings) -> Box<dyn Provider> {
    match kind {
        Kind::Anthropic => Box::new(anthropic(server, http)),
        Kind::OpenAi => Box::new(openai(server, http)),
    }
}

#[tokio::test]
async fn both_providers_honour_retry_after_and_retry_5xx() {
    for kind in KINDS {
        let server = serve(vec![
            ScriptedResponse::json(429, "{}").header("retry-after-ms", "150"),
            ScriptedResponse::json(503, "{}"),
            ScriptedResponse::json(500, "{}"),
            ScriptedResponse::sse(text_stream(kind, "recovered")),
        ])
        .await;
        let started = Instant::now();
        let (collected, error) = run(provider(kind, &server, settings(4)).as_ref()).await;
        assert_eq!(error, None, "{kind:?}");
        assert_eq!(collected.text, "recovered");
        assert_eq!(collected.retries.len(), 3, "{kind:?}");
        assert_eq!(collected.retries[0].delay, Duration::from_millis(150));
        assert!(collected.retries[2].message().contains("attempt 4 of 4"));
        assert!(started.elapsed() >= Duration::from_millis(150));
        assert_eq!(collected.stop, Some(StopReason::EndTurn));
        assert!(collected.usage.is_some());
    }
}

#[tokio::test]
async fn both_providers_retry_a_reset_and_report_a_late_drop() {
    for kind in KINDS {
        let body = text_stream(kind, "partial answer");
        let cut = body.len() - 20;
        let server = serve(vec![
            ScriptedResponse::reset(),
            ScriptedResponse::sse(body)
                .split(Split::Every(11))
                .drop_after(cut),
        ])
        .await;
        let (collected, error) = run(provider(kind, &server, settings(3)).as_ref()).await;
        assert_eq!(collected.retries.len(), 1, "{kind:?}");
        assert_eq!(collected.text, "partial answer", "{kind:?}");
        assert!(
            matches!(error, Some(ProviderError::StreamInterrupted { .. })),
            "{kind:?}: {error:?}"
        );
        assert_eq!(server.requests().len(), 2);
    }
}

#[tokio::test]
async fn both_providers_time_out_idle_streams_and_cancel_promptly() {
    for kind in KINDS {
        let body = text_stream(kind, "then silence");
        let first_event = body.find("\n\n").unwrap() + 2;
        let server = serve(vec![
            ScriptedResponse::sse(body.clone()).stall_after(first_event),
            ScriptedResponse::sse(body).stall_after(first_event),
        ])
        .await;
        let http = HttpSettings {
            idle_timeout: Duration::from_millis(250),
            ..settings(1)
        };
        let (_, error) = run(provider(kind, &server, http).as_ref()).await;
        assert!(
            matches!(error, Some(ProviderError::IdleTimeout { .. })),
            "{kind:?}: {error:?}"
        );

        let cancel = CancellationToken::new();
        let streaming = provider(kind, &server, settings(1));
        let mut stream = streaming.stream(request(), cancel.clone());
        let canceller = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            canceller.cancel();
        });
        let mut items = Vec::new();
        while let Some(item) = stream.next().await {
            items.push(item);
        }
        let cancelled_at = Instant::now();
        assert_eq!(
            items.last(),
            Some(&Err(ProviderError::Cancelled)),
            "{kind:?}"
        );
        let closed_at = server.wait_closed(2, Duration::from_secs(2)).await.unwrap();
        assert!(
            closed_at.saturating_duration_since(cancelled_at) < Duration::from_millis(100),
            "{kind:?}"
        );
    }
}
