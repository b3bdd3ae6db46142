//! The answer's output limit of the settings: each wire carries it in the field its servers
//! read, a local server gets the smaller default, a limit out of range is refused before any
//! request, and an answer cut off at the limit ends the task with a notice that says so.

use foreman_core::agent::{Session, SessionConfig};
use foreman_core::protocol::TaskEndReason;
use foreman_core::providers::keys::static_key;
use foreman_core::providers::{
    Limits, ProviderPreset, ProviderSettings, build_provider, limits_for,
};
use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedResponse;

use super::common::*;

/// A session started from `settings` as the app starts one, against a server that answers
/// `response` once.
async fn session(
    wire: Wire,
    mut settings: ProviderSettings,
    response: ScriptedResponse,
) -> Harness {
    let server = serve(vec![response]).await;
    settings.base_url = match wire {
        Wire::Anthropic => server.url(),
        Wire::OpenAi => format!("{}/v1", server.url()),
    };
    settings.max_attempts = 1;
    if settings.model.is_empty() {
        settings.model = "local-model".into();
    }
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

fn answer(wire: Wire) -> ScriptedResponse {
    ScriptedResponse::sse(body(wire, &[text("done")]))
}

/// The body of the one request `settings` make.
async fn request_body(wire: Wire, settings: ProviderSettings) -> serde_json::Value {
    let mut h = session(wire, settings, answer(wire)).await;
    h.say("hello");
    assert!(h.end().await.is_success());
    h.server.requests()[0].json()
}

#[tokio::test]
async fn each_wire_carries_the_limit_in_the_field_its_servers_read() {
    let with = |preset| ProviderSettings {
        max_tokens: Some(1_500),
        ..ProviderSettings::for_preset(preset)
    };
    let anthropic = request_body(Wire::Anthropic, with(ProviderPreset::Anthropic)).await;
    assert_eq!(anthropic["max_tokens"], 1_500);

    for preset in [
        ProviderPreset::Custom,
        ProviderPreset::Ollama,
        ProviderPreset::OpenRouter,
    ] {
        let body = request_body(Wire::OpenAi, with(preset)).await;
        assert_eq!(body["max_tokens"], 1_500, "{preset:?}: {body}");
        assert!(body.get("max_completion_tokens").is_none(), "{body}");
    }

    // OpenAI's own API: `max_tokens` is deprecated there and refused by its reasoning models.
    let openai = request_body(Wire::OpenAi, with(ProviderPreset::OpenAi)).await;
    assert_eq!(openai["max_completion_tokens"], 1_500);
    assert!(openai.get("max_tokens").is_none(), "{openai}");
}

#[tokio::test]
async fn a_local_server_gets_the_smaller_default_and_a_hosted_preset_its_own() {
    let custom = ProviderSettings::for_preset(ProviderPreset::Custom);
    assert_eq!(
        request_body(Wire::OpenAi, custom).await["max_tokens"],
        2_048
    );
    let lm_studio = ProviderSettings::for_preset(ProviderPreset::LmStudio);
    assert_eq!(
        request_body(Wire::OpenAi, lm_studio).await["max_tokens"],
        2_048
    );
    let anthropic = ProviderSettings::for_preset(ProviderPreset::Anthropic);
    assert_eq!(
        request_body(Wire::Anthropic, anthropic).await["max_tokens"],
        8_192
    );
}

#[tokio::test]
async fn a_limit_out_of_range_is_refused_before_any_request() {
    for max_tokens in [0, 1_000_000] {
        let mut h = start_with(Wire::OpenAi, vec![answer(Wire::OpenAi)], |config| {
            config.limits = Limits {
                max_tokens,
                ..Limits::default()
            };
        })
        .await;
        h.say("hello");
        let TaskEndReason::Error { message, .. } = h.end().await else {
            panic!("a limit of {max_tokens} was sent");
        };
        assert!(
            message.contains("allow at least 1 token") || message.contains("at most 128000"),
            "{message}"
        );
        assert!(h.server.requests().is_empty(), "nothing was sent");
    }
}

#[tokio::test]
async fn an_answer_cut_off_at_the_limit_ends_with_a_notice() {
    for wire in BOTH {
        // The server counts the 300 tokens it was allowed.
        let cut_off = cut_off(wire, "The first half of a long", 300);
        let mut h = session(wire, limited_to_300(wire), ScriptedResponse::sse(cut_off)).await;
        h.say("write a lot");
        let end = h.end().await;
        assert_eq!(
            end,
            TaskEndReason::Error {
                message: "The answer reached its limit of 300 tokens and was cut off. Raise \
                          “Max answer tokens” in Settings (--max-tokens in the CLI), or ask for \
                          something shorter."
                    .into(),
                retryable: false,
            },
            "{wire:?}"
        );
        let shown: String = h
            .seen
            .iter()
            .filter_map(|e| match &e.msg {
                foreman_core::protocol::EventMsg::TextDelta { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            shown, "The first half of a long",
            "what came is kept on screen"
        );
    }
}

/// An answer of `words` that the server stopped at an output limit after counting `tokens`.
fn cut_off(wire: Wire, words: &str, tokens: u64) -> String {
    let body = match wire {
        Wire::OpenAi => body(wire, &[text(words)])
            .replace(r#""finish_reason":"stop""#, r#""finish_reason":"length""#)
            .replace(
                r#""completion_tokens":5"#,
                &format!(r#""completion_tokens":{tokens}"#),
            ),
        Wire::Anthropic => body(wire, &[text(words)])
            .replace(
                r#""stop_reason":"end_turn""#,
                r#""stop_reason":"max_tokens""#,
            )
            .replace(
                r#""output_tokens":5"#,
                &format!(r#""output_tokens":{tokens}"#),
            ),
    };
    assert!(
        body.contains(&format!(":{tokens}")),
        "the usage was rewritten: {body}"
    );
    assert!(body.contains("length") || body.contains("max_tokens"));
    body
}

/// The wire's preset with an answer limit of 300 tokens.
fn limited_to_300(wire: Wire) -> ProviderSettings {
    ProviderSettings {
        max_tokens: Some(300),
        ..ProviderSettings::for_preset(match wire {
            Wire::Anthropic => ProviderPreset::Anthropic,
            Wire::OpenAi => ProviderPreset::Custom,
        })
    }
}

#[tokio::test]
async fn an_answer_a_server_cut_off_below_the_limit_names_the_server() {
    for wire in BOTH {
        let cut_off = cut_off(wire, "The first half", 120);
        let mut h = session(wire, limited_to_300(wire), ScriptedResponse::sse(cut_off)).await;
        h.say("write a lot");
        let end = h.end().await;
        assert_eq!(
            end,
            TaskEndReason::Error {
                message: "The server cut the answer off after 120 tokens, below Foreman’s limit \
                          of 300: its own output limit stopped it. Raise that limit in the \
                          server’s settings, or ask for something shorter."
                    .into(),
                retryable: false,
            },
            "{wire:?}"
        );
    }
}
