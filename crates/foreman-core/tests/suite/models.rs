//! Listing a provider's models through the real HTTP stack: each server's format, the request
//! it is sent (path, headers), and the typed errors of a failing or silent server.

use std::time::Duration;

use foreman_core::providers::keys::StaticKey;
use foreman_core::providers::{
    LIST_TIMEOUT, ModelInfo, ModelListError, ProviderPreset, ProviderSettings, list_models,
};
use foreman_core::secrets::Secret;
use foreman_core::testing::sse_server::ScriptedResponse;

use super::common::serve;

const KEY: &str = "sk-list-models-secret";

fn settings(preset: ProviderPreset, base_url: String) -> ProviderSettings {
    ProviderSettings {
        base_url,
        ..ProviderSettings::for_preset(preset)
    }
}

fn key() -> StaticKey {
    StaticKey(Some(Secret::new(KEY)))
}

async fn list(preset: ProviderPreset, base_url: String) -> Result<Vec<ModelInfo>, ModelListError> {
    list_models(&settings(preset, base_url), &key(), LIST_TIMEOUT).await
}

fn info(id: &str, name: Option<&str>, window: Option<u32>) -> ModelInfo {
    ModelInfo {
        id: id.into(),
        display_name: name.map(Into::into),
        context_window: window,
    }
}

#[tokio::test]
async fn openai_lists_its_models_sorted_with_the_key_as_a_bearer_token() {
    let server = serve(vec![ScriptedResponse::json(
        200,
        r#"{"object":"list","data":[
            {"id":"gpt-4o","object":"model","created":1715367049,"owned_by":"system"},
            {"id":"gpt-4.1-mini","object":"model","created":1744318173,"owned_by":"system"},
            {"id":"o3","object":"model","created":1744225308,"owned_by":"system"}]}"#,
    )])
    .await;
    let models = list(ProviderPreset::OpenAi, format!("{}/v1", server.url()))
        .await
        .unwrap();
    assert_eq!(
        models,
        [
            info("gpt-4.1-mini", None, None),
            info("gpt-4o", None, None),
            info("o3", None, None)
        ]
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].path, "/v1/models");
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
}

#[tokio::test]
async fn openrouter_gives_names_and_context_windows() {
    let server = serve(vec![ScriptedResponse::json(
        200,
        r#"{"data":[
            {"id":"anthropic/claude-sonnet-4.5","name":"Anthropic: Claude Sonnet 4.5",
             "context_length":1000000,"pricing":{"prompt":"0.000003"}},
            {"id":"qwen/qwen3-coder","name":"qwen/qwen3-coder","context_length":262144},
            {"id":"mystery/model","name":"Mystery","context_length":null}]}"#,
    )])
    .await;
    let models = list(
        ProviderPreset::OpenRouter,
        format!("{}/api/v1/", server.url()),
    )
    .await
    .unwrap();
    assert_eq!(
        models,
        [
            info(
                "anthropic/claude-sonnet-4.5",
                Some("Anthropic: Claude Sonnet 4.5"),
                Some(1_000_000)
            ),
            info("mystery/model", Some("Mystery"), None),
            info("qwen/qwen3-coder", None, Some(262_144)),
        ]
    );
    assert_eq!(server.requests()[0].path, "/api/v1/models");
}

#[tokio::test]
async fn ollama_is_asked_for_its_tags_beside_the_v1_api_without_a_key() {
    let server = serve(vec![ScriptedResponse::json(
        200,
        r#"{"models":[
            {"name":"qwen2.5-coder:14b","model":"qwen2.5-coder:14b","size":8988124069,
             "details":{"family":"qwen2","parameter_size":"14.8B"}},
            {"name":"llama3.1:8b","model":"llama3.1:8b","size":4920753328}]}"#,
    )])
    .await;
    let models = list_models(
        &settings(ProviderPreset::Ollama, format!("{}/v1", server.url())),
        &StaticKey(None),
        LIST_TIMEOUT,
    )
    .await
    .unwrap();
    assert_eq!(
        models,
        [
            info("llama3.1:8b", None, None),
            info("qwen2.5-coder:14b", None, None)
        ]
    );
    let request = &server.requests()[0];
    assert_eq!(request.path, "/api/tags");
    assert_eq!(request.header("authorization"), None);
}

#[tokio::test]
async fn lm_studio_tells_context_windows_natively_and_leaves_embeddings_out() {
    let server = serve(vec![ScriptedResponse::json(
        200,
        r#"{"object":"list","data":[
            {"id":"qwen2.5-7b-instruct","object":"model","type":"llm","state":"loaded",
             "max_context_length":32768},
            {"id":"text-embedding-nomic-embed-text-v1.5","type":"embeddings",
             "max_context_length":2048}]}"#,
    )])
    .await;
    let models = list(ProviderPreset::LmStudio, format!("{}/v1", server.url()))
        .await
        .unwrap();
    assert_eq!(models, [info("qwen2.5-7b-instruct", None, Some(32_768))]);
    assert_eq!(server.requests()[0].path, "/api/v0/models");
}

#[tokio::test]
async fn an_lm_studio_without_its_native_api_is_asked_the_openai_way() {
    let server = serve(vec![
        ScriptedResponse::json(404, r#"{"error":"Unexpected endpoint or method."}"#),
        ScriptedResponse::json(200, r#"{"data":[{"id":"local-model","object":"model"}]}"#),
    ])
    .await;
    let models = list(ProviderPreset::LmStudio, format!("{}/v1", server.url()))
        .await
        .unwrap();
    assert_eq!(models, [info("local-model", None, None)]);
    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/api/v0/models", "/v1/models"]);
}

#[tokio::test]
async fn anthropic_pages_are_followed_with_the_key_and_version_headers() {
    let server = serve(vec![
        ScriptedResponse::json(
            200,
            r#"{"data":[
                {"type":"model","id":"claude-sonnet-4-5-20250929","display_name":"Claude Sonnet 4.5",
                 "created_at":"2025-09-29T00:00:00Z"},
                {"type":"model","id":"claude-opus-4-1-20250805","display_name":"Claude Opus 4.1",
                 "created_at":"2025-08-05T00:00:00Z"}],
              "has_more":true,"first_id":"claude-sonnet-4-5-20250929",
              "last_id":"claude-opus-4-1-20250805"}"#,
        ),
        ScriptedResponse::json(
            200,
            r#"{"data":[{"type":"model","id":"claude-3-5-haiku-20241022",
                "display_name":"Claude Haiku 3.5","created_at":"2024-10-22T00:00:00Z"}],
              "has_more":false,"first_id":"claude-3-5-haiku-20241022",
              "last_id":"claude-3-5-haiku-20241022"}"#,
        ),
    ])
    .await;
    let models = list(ProviderPreset::Anthropic, server.url()).await.unwrap();
    assert_eq!(
        models,
        [
            info(
                "claude-sonnet-4-5-20250929",
                Some("Claude Sonnet 4.5"),
                None
            ),
            info("claude-opus-4-1-20250805", Some("Claude Opus 4.1"), None),
            info("claude-3-5-haiku-20241022", Some("Claude Haiku 3.5"), None),
        ],
        "the server's order (newest first) is kept"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].path, "/v1/models?limit=1000");
    assert_eq!(
        requests[1].path,
        "/v1/models?limit=1000&after_id=claude-opus-4-1-20250805"
    );
    for request in &requests {
        assert_eq!(request.method, "GET");
        assert_eq!(request.header("x-api-key"), Some(KEY));
        assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
        assert_eq!(request.header("authorization"), None);
    }
}

#[tokio::test]
async fn a_server_error_is_typed_and_never_shows_the_key() {
    let server = serve(vec![ScriptedResponse::json(
        500,
        &format!(r#"{{"error":{{"message":"internal failure for key {KEY}"}}}}"#),
    )])
    .await;
    let error = list(ProviderPreset::OpenAi, format!("{}/v1", server.url()))
        .await
        .unwrap_err();
    assert_eq!(
        error,
        ModelListError::Status {
            provider: "OpenAI".into(),
            status: 500,
            message: "internal failure for key [REDACTED]".into(),
        }
    );
    assert!(!error.to_string().contains(KEY));
    assert!(!format!("{error:?}").contains(KEY));
}

#[tokio::test]
async fn a_rejected_key_is_an_auth_error() {
    let server = serve(vec![ScriptedResponse::json(
        401,
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
    )])
    .await;
    let error = list(ProviderPreset::Anthropic, server.url())
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "Anthropic rejected the API key (HTTP 401): invalid x-api-key"
    );
}

#[tokio::test]
async fn a_silent_server_times_out_with_a_typed_error() {
    let server = serve(vec![
        ScriptedResponse::json(200, r#"{"data":[]}"#).initial_delay(Duration::from_secs(5)),
    ])
    .await;
    let started = std::time::Instant::now();
    let error = list_models(
        &settings(ProviderPreset::OpenAi, format!("{}/v1", server.url())),
        &key(),
        Duration::from_millis(300),
    )
    .await
    .unwrap_err();
    assert_eq!(
        error,
        ModelListError::Timeout {
            provider: "OpenAI".into(),
            timeout: Duration::from_millis(300),
        }
    );
    assert_eq!(
        error.to_string(),
        "OpenAI did not answer within 0.3 seconds"
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn an_answer_that_is_not_a_list_is_a_parse_error() {
    let server = serve(vec![ScriptedResponse::json(200, r#"{"models":"none"}"#)]).await;
    let error = list(ProviderPreset::Custom, format!("{}/v1", server.url()))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ModelListError::Parse { provider, .. } if provider == "OpenAI-compatible server"),
        "{error:?}"
    );
}

#[tokio::test]
async fn an_unreachable_server_is_a_connect_error() {
    // A port nothing listens on any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let error = list_models(
        &settings(ProviderPreset::Ollama, format!("{url}/v1")),
        &StaticKey(None),
        LIST_TIMEOUT,
    )
    .await
    .unwrap_err();
    assert!(matches!(error, ModelListError::Connect { .. }), "{error:?}");
}
