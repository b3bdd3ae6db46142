//! Settings' "Test connection" against the scripted server on 127.0.0.1: the models the server
//! lists come back, and the verdict on native tool calling suggests the text protocol when the
//! model answers a request with a tool without calling it, or the server refuses the tool.

use std::sync::Arc;

use foreman_core::providers::keys::StaticKey;
use foreman_core::providers::{
    ConnectionTest, ModelInfo, ProviderPreset, ProviderSettings, TEST_TIMEOUT, ToolSupport,
    test_connection,
};
use foreman_core::testing::scripts::{call, text};
use foreman_core::testing::sse_server::{ScriptedResponse, ScriptedServer};
use serde_json::json;

use super::common::*;

const MODELS: &str = r#"{"object":"list","data":[{"id":"gemma-3-270m","object":"model"},
    {"id":"qwen2.5-coder-7b","object":"model"}]}"#;

fn local(preset: ProviderPreset, server: &ScriptedServer) -> ProviderSettings {
    ProviderSettings {
        base_url: format!("{}/v1", server.url()),
        model: "gemma-3-270m".into(),
        ..ProviderSettings::for_preset(preset)
    }
}

/// Tests `settings` without any key.
async fn test(settings: &ProviderSettings) -> ConnectionTest {
    test_connection(settings, Arc::new(StaticKey(None)), TEST_TIMEOUT).await
}

fn answer(steps: &[foreman_core::testing::scripts::Step]) -> ScriptedResponse {
    ScriptedResponse::sse(body(Wire::OpenAi, steps))
}

#[tokio::test]
async fn a_model_that_answers_in_text_instead_of_calling_the_tool_gets_the_text_protocol() {
    let server = serve(vec![
        ScriptedResponse::json(200, MODELS),
        answer(&[text("Sure! The status is ok.")]),
    ])
    .await;
    let result = test(&local(ProviderPreset::Custom, &server)).await;
    assert!(result.connected, "{result:?}");
    assert_eq!(
        result.models,
        [
            ModelInfo::new("gemma-3-270m"),
            ModelInfo::new("qwen2.5-coder-7b")
        ]
    );
    assert_eq!(result.models_error, None);
    assert_eq!(
        result.tool_support,
        ToolSupport::Ignored {
            answer: "Sure! The status is ok.".into()
        }
    );
    assert!(result.suggest_text_protocol);
    assert!(result.latency_ms.is_some());
    assert!(
        result.message.contains("did not call the tool")
            && result.message.ends_with("Use the text protocol for it."),
        "{}",
        result.message
    );

    let requests = server.requests();
    assert_eq!(
        (requests[0].method.as_str(), requests[0].path.as_str()),
        ("GET", "/v1/models")
    );
    assert_eq!(
        requests[0].header("authorization"),
        None,
        "no key, none sent"
    );
    let sent = requests[1].json();
    assert_eq!(requests[1].path, "/v1/chat/completions");
    assert_eq!(sent["tools"][0]["function"]["name"], "report_status");
    assert_eq!(sent["max_tokens"], 256, "a short test: {sent}");
}

#[tokio::test]
async fn a_server_that_rejects_tools_with_a_400_gets_the_text_protocol() {
    let server = serve(vec![
        ScriptedResponse::json(200, MODELS),
        ScriptedResponse::json(
            400,
            r#"{"error":{"message":"tools is not supported for this model","type":"invalid_request_error"}}"#,
        ),
        answer(&[text("OK")]),
    ])
    .await;
    let result = test(&local(ProviderPreset::Custom, &server)).await;
    assert!(result.connected, "{result:?}");
    let ToolSupport::Refused { message } = &result.tool_support else {
        panic!("{result:?}");
    };
    assert!(
        message.contains("HTTP 400") && message.contains("tools is not supported"),
        "{message}"
    );
    assert!(result.suggest_text_protocol);
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert!(requests[1].json().get("tools").is_some());
    assert!(
        requests[2].json().get("tools").is_none(),
        "the same request again without the tool"
    );
}

#[tokio::test]
async fn a_model_that_calls_the_tool_needs_no_suggestion() {
    let server = serve(vec![
        ScriptedResponse::json(200, MODELS),
        answer(&[call("c1", "report_status", json!({"status": "ok"}))]),
    ])
    .await;
    let result = test(&local(ProviderPreset::Custom, &server)).await;
    assert_eq!(result.tool_support, ToolSupport::Native, "{result:?}");
    assert!(!result.suggest_text_protocol);
    assert!(result.connected);
    assert!(
        result.message.ends_with("calls tools natively."),
        "{}",
        result.message
    );
}

#[tokio::test]
async fn ollama_lists_its_tags_and_a_text_protocol_already_on_is_not_suggested_again() {
    let server = serve(vec![
        ScriptedResponse::json(200, r#"{"models":[{"name":"gemma3:270m"}]}"#),
        answer(&[text("status ok")]),
    ])
    .await;
    let settings = ProviderSettings {
        text_protocol: true,
        ..local(ProviderPreset::Ollama, &server)
    };
    let result = test(&settings).await;
    assert_eq!(result.models, [ModelInfo::new("gemma3:270m")]);
    assert_eq!(server.requests()[0].path, "/api/tags");
    assert!(result.tool_support.lacks_tools());
    assert!(!result.suggest_text_protocol, "it is on already");
}

#[tokio::test]
async fn without_a_model_the_listed_ones_are_offered_and_nothing_else_is_sent() {
    let server = serve(vec![ScriptedResponse::json(200, MODELS)]).await;
    let settings = ProviderSettings {
        model: String::new(),
        ..local(ProviderPreset::Custom, &server)
    };
    let result = test(&settings).await;
    assert!(result.connected);
    assert_eq!(result.models.len(), 2);
    assert_eq!(result.tool_support, ToolSupport::Unknown);
    assert_eq!(
        result.message,
        "OpenAI-compatible server lists 2 model(s): choose one to test it."
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_failing_server_is_reported_and_a_hosted_preset_still_needs_its_key() {
    let server = serve(vec![
        ScriptedResponse::json(404, r#"{"error":"not found"}"#),
        ScriptedResponse::json(
            404,
            r#"{"error":{"message":"model 'gemma-3-270m' not found"}}"#,
        ),
        ScriptedResponse::json(
            404,
            r#"{"error":{"message":"model 'gemma-3-270m' not found"}}"#,
        ),
    ])
    .await;
    let result = test(&local(ProviderPreset::Custom, &server)).await;
    assert!(!result.connected, "{result:?}");
    assert!(result.models_error.is_some());
    assert_eq!(result.tool_support, ToolSupport::Unknown);
    assert!(
        !result.suggest_text_protocol,
        "a missing model is not missing tools"
    );
    assert!(result.message.contains("not found"), "{}", result.message);

    let hosted = test(&ProviderSettings::for_preset(ProviderPreset::OpenRouter)).await;
    assert!(!hosted.connected);
    assert_eq!(
        hosted.message,
        "No API key for OpenRouter: store one first."
    );
}

#[tokio::test]
async fn anthropic_without_a_models_list_is_still_tested() {
    let server = serve(vec![
        ScriptedResponse::json(404, r#"{"error":"not found"}"#),
        ScriptedResponse::sse(body(Wire::Anthropic, &[text("Sure! The status is ok.")])),
    ])
    .await;
    let settings = ProviderSettings {
        base_url: server.url(),
        model: "claude-e2e".into(),
        ..ProviderSettings::for_preset(ProviderPreset::Anthropic)
    };
    let key = foreman_core::providers::keys::static_key("k");
    let result = test_connection(&settings, key, TEST_TIMEOUT).await;
    assert!(result.connected, "{result:?}");
    assert!(result.models_error.is_some());
    assert!(result.suggest_text_protocol, "{result:?}");
    assert_eq!(
        server.requests()[1].json()["tools"][0]["name"],
        "report_status"
    );
}
