//! The model the user chose, how hard it thinks and how long it may answer, reach the exact
//! request bodies: from the settings when a session starts, and from `Op::SetModel` in a
//! session already running.

use foreman_core::agent::{Session, SessionConfig};
use foreman_core::protocol::{EventMsg, Op, ReasoningEffort};
use foreman_core::providers::keys::static_key;
use foreman_core::providers::{ProviderPreset, ProviderSettings, build_provider, limits_for};
use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

/// A session started from `settings` as the app starts one (provider, model, limits), whose
/// model answers `answers` times; the server's base URL is filled in.
async fn from_settings(wire: Wire, mut settings: ProviderSettings, answers: usize) -> Harness {
    let responses = (0..answers)
        .map(|i| ScriptedResponse::sse(body(wire, &[text(&format!("answer {i}"))])))
        .collect();
    let server = serve(responses).await;
    settings.base_url = match wire {
        Wire::Anthropic => server.url(),
        Wire::OpenAi => format!("{}/v1", server.url()),
    };
    settings.max_attempts = 1;
    let dir = tempfile::tempdir().unwrap();
    let provider = build_provider(&settings, static_key("k"), None).unwrap();
    let mut config = SessionConfig::new(provider, settings.model.clone(), dir.path().into());
    config.data_dir = dir.path().join(".foreman-data");
    config.limits = limits_for(&settings);
    config.watch_debounce = None;
    let (ops, events) = Session::spawn(config).unwrap();
    Harness {
        server,
        dir,
        ops,
        events,
        wire,
        seen: Vec::new(),
    }
}

fn request(h: &Harness, n: usize) -> serde_json::Value {
    h.server.requests()[n].json()
}

#[tokio::test]
async fn the_anthropic_thinking_budget_of_the_settings_is_sent() {
    let settings = ProviderSettings {
        model: "claude-sonnet-4-5".into(),
        thinking_budget: Some(4_096),
        reasoning_effort: Some(ReasoningEffort::High),
        ..ProviderSettings::for_preset(ProviderPreset::Anthropic)
    };
    let mut h = from_settings(Wire::Anthropic, settings, 1).await;
    h.say("think first");
    assert!(h.end().await.is_success());
    let body = request(&h, 0);
    assert_eq!(
        body["thinking"],
        json!({"type": "enabled", "budget_tokens": 4096})
    );
    assert_eq!(body["max_tokens"], 8192 + 4096, "the answer keeps its room");
    assert!(body.get("reasoning_effort").is_none(), "{body}");
}

#[tokio::test]
async fn the_openai_reasoning_effort_of_the_settings_is_sent() {
    let settings = ProviderSettings {
        model: "o3".into(),
        reasoning_effort: Some(ReasoningEffort::Minimal),
        thinking_budget: Some(4_096),
        ..ProviderSettings::for_preset(ProviderPreset::OpenAi)
    };
    let mut h = from_settings(Wire::OpenAi, settings, 1).await;
    h.say("quick one");
    assert!(h.end().await.is_success());
    let body = request(&h, 0);
    assert_eq!(body["reasoning_effort"], "minimal");
    assert_eq!(body["max_completion_tokens"], 8192);
    assert!(body.get("max_tokens").is_none(), "{body}");
    assert!(body.get("thinking").is_none(), "{body}");
}

#[tokio::test]
async fn a_model_chosen_in_a_running_session_is_used_from_its_next_request() {
    let settings = ProviderSettings {
        model: "claude-sonnet-4-5".into(),
        ..ProviderSettings::for_preset(ProviderPreset::Anthropic)
    };
    let mut h = from_settings(Wire::Anthropic, settings, 2).await;
    h.say("first");
    assert!(h.end().await.is_success());
    h.send(Op::SetModel {
        model: "claude-opus-4-1".into(),
        context_window: Some(100_000),
        thinking_budget: Some(2_048),
        reasoning_effort: None,
        max_tokens: None,
    });
    let changed = h
        .until(|m| matches!(m, EventMsg::ModelChanged { .. }))
        .await;
    let EventMsg::ModelChanged { model, usage } = changed else {
        unreachable!()
    };
    assert_eq!(model, "claude-opus-4-1");
    assert_eq!(usage.context_window, 100_000);
    assert!(usage.cost_usd.is_some(), "Opus has a price: {usage:?}");
    h.say("second");
    assert!(h.end().await.is_success());
    let (before, after) = (request(&h, 0), request(&h, 1));
    assert_eq!(before["model"], "claude-sonnet-4-5");
    assert!(before.get("thinking").is_none());
    assert_eq!(after["model"], "claude-opus-4-1");
    assert_eq!(
        after["thinking"],
        json!({"type": "enabled", "budget_tokens": 2048})
    );
    assert_eq!(after["max_tokens"], 8192 + 2048);
}

#[tokio::test]
async fn a_model_change_with_a_bad_thinking_budget_is_refused_and_the_model_kept() {
    let mut h = from_settings(
        Wire::OpenAi,
        ProviderSettings {
            model: "gpt-4o".into(),
            ..ProviderSettings::for_preset(ProviderPreset::OpenAi)
        },
        1,
    )
    .await;
    h.send(Op::SetModel {
        model: "claude-opus-4-1".into(),
        context_window: None,
        thinking_budget: Some(100),
        reasoning_effort: None,
        max_tokens: None,
    });
    let EventMsg::Error { message } = h.until(|m| matches!(m, EventMsg::Error { .. })).await else {
        unreachable!()
    };
    assert_eq!(
        message,
        "The model was not changed: A thinking budget of 100 tokens is too small: Anthropic \
         needs at least 1024."
    );
    h.send(Op::SetModel {
        model: "gpt-5".into(),
        context_window: None,
        thinking_budget: None,
        reasoning_effort: None,
        max_tokens: Some(0),
    });
    let EventMsg::Error { message } = h.until(|m| matches!(m, EventMsg::Error { .. })).await else {
        unreachable!()
    };
    assert_eq!(
        message,
        "The model was not changed: The answer needs room: allow at least 1 token."
    );
    h.send(Op::SetModel {
        model: "gpt-5".into(),
        context_window: None,
        thinking_budget: None,
        reasoning_effort: Some(ReasoningEffort::High),
        max_tokens: Some(600),
    });
    let EventMsg::ModelChanged { usage, .. } = h
        .until(|m| matches!(m, EventMsg::ModelChanged { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(usage.context_window, 400_000, "gpt-5's known window");
    h.say("go");
    assert!(h.end().await.is_success());
    let body = request(&h, 0);
    assert_eq!(body["model"], "gpt-5");
    assert_eq!(body["reasoning_effort"], "high");
    assert_eq!(body["max_completion_tokens"], 600, "the new answer limit");
}
