//! [`build_provider`]: the provider the settings a user chooses in the app describe (the settings
//! themselves are protocol types: [`ProviderSettings`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use foreman_protocol::settings::{MIN_CONTEXT_WINDOW, ProviderPreset, ProviderSettings};

use super::anthropic::{AnthropicConfig, AnthropicProvider};
use super::error::ProviderError;
use super::http::HttpSettings;
use super::keys::SharedKeySource;
use super::openai::{MaxTokensField, OpenAiConfig, OpenAiProvider};
use super::provider::Provider;
use super::request::Limits;

/// The HTTP settings of `settings`.
fn http(settings: &ProviderSettings) -> HttpSettings {
    let mut http = HttpSettings {
        connect_timeout: Duration::from_secs(u64::from(settings.connect_timeout_secs.max(1))),
        idle_timeout: Duration::from_secs(u64::from(settings.idle_timeout_secs.max(1))),
        ..HttpSettings::default()
    };
    http.retry.max_attempts = settings.max_attempts.max(1);
    http
}

/// The provider these settings describe, asking `key` for the API key at each request, and
/// recording every response into `record_to` when it is given and the settings ask for it.
pub fn build_provider(
    settings: &ProviderSettings,
    key: SharedKeySource,
    record_to: Option<PathBuf>,
) -> Result<Arc<dyn Provider>, ProviderError> {
    if let Some(problem) = settings.problem() {
        return Err(ProviderError::Config {
            provider: settings.preset.label().to_owned(),
            message: problem,
        });
    }
    let url = settings.effective_base_url().to_owned();
    let http = HttpSettings {
        record_to: record_to.filter(|_| settings.record_streams),
        ..http(settings)
    };
    if settings.preset.is_anthropic() {
        let mut config = AnthropicConfig::new(key).with_base_url(url).with_http(http);
        config.key_required = settings.requires_key();
        Ok(Arc::new(AnthropicProvider::new(config)?))
    } else {
        let mut config = OpenAiConfig::new(url, key).with_http(http);
        // OpenAI's own API has deprecated `max_tokens`, and its reasoning models refuse it;
        // compatible servers (Ollama, llama.cpp, vLLM, OpenRouter) know `max_tokens`.
        if settings.preset == ProviderPreset::OpenAi {
            config.max_tokens_field = MaxTokensField::MaxCompletionTokens;
        }
        Ok(Arc::new(OpenAiProvider::new(config)?))
    }
}

/// The limits of requests made with these settings: the answer's output limit (the user's, else
/// the default for where the server is), the thinking budget for Anthropic, the reasoning
/// effort for the others (each API gets only its own).
pub fn limits_for(settings: &ProviderSettings) -> Limits {
    Limits {
        max_tokens: settings.max_tokens(),
        reasoning_effort: settings.reasoning_effort(),
        ..Limits::default()
    }
    .with_thinking_budget(settings.thinking_budget())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::StaticKey;

    #[tokio::test]
    async fn responses_are_recorded_only_when_the_settings_ask() {
        use crate::testing::scripts::{self, text};
        use crate::testing::sse_server::{ScriptedResponse, ScriptedServer};
        use futures_util::StreamExt;
        let body = scripts::openai(&[text("hi")], 5);
        for record_streams in [false, true] {
            let server = ScriptedServer::start(vec![ScriptedResponse::sse(body.clone())])
                .await
                .unwrap();
            let settings = ProviderSettings {
                base_url: format!("{}/v1", server.url()),
                record_streams,
                ..ProviderSettings::for_preset(ProviderPreset::Ollama)
            };
            let dir = tempfile::tempdir().unwrap();
            let recordings = dir.path().join("recordings");
            let provider = build_provider(
                &settings,
                Arc::new(StaticKey(None)),
                Some(recordings.clone()),
            )
            .unwrap();
            let request = super::super::ProviderRequest::new("m", "s", Vec::new());
            let events: Vec<_> = provider
                .stream(request, tokio_util::sync::CancellationToken::new())
                .collect()
                .await;
            assert!(events.iter().all(Result::is_ok), "{events:?}");
            let recorded = std::fs::read(recordings.join("0001-openai-compatible-server.sse"));
            assert_eq!(recorded.is_ok(), record_streams, "{recorded:?}");
        }
    }

    #[test]
    fn each_api_gets_only_its_own_thinking_setting() {
        use crate::providers::request::{DEFAULT_MAX_TOKENS, ReasoningEffort};
        let both = ProviderSettings {
            thinking_budget: Some(2_048),
            reasoning_effort: Some(ReasoningEffort::Medium),
            ..ProviderSettings::default()
        };
        let anthropic = limits_for(&both);
        assert_eq!(anthropic.thinking_budget, Some(2_048));
        assert_eq!(anthropic.max_tokens, DEFAULT_MAX_TOKENS + 2_048);
        assert_eq!(anthropic.reasoning_effort, None);
        let openai = limits_for(&ProviderSettings {
            preset: ProviderPreset::OpenAi,
            ..both
        });
        assert_eq!(openai.thinking_budget, None);
        assert_eq!(openai.max_tokens, DEFAULT_MAX_TOKENS);
        assert_eq!(openai.reasoning_effort, Some(ReasoningEffort::Medium));
    }

    #[test]
    fn the_answer_limit_is_the_users_else_the_default_for_where_the_server_is() {
        use crate::providers::request::DEFAULT_MAX_TOKENS;
        use foreman_protocol::settings::LOCAL_MAX_TOKENS;
        let ollama = ProviderSettings::for_preset(ProviderPreset::Ollama);
        assert_eq!(limits_for(&ollama).max_tokens, LOCAL_MAX_TOKENS);
        let hosted = ProviderSettings::for_preset(ProviderPreset::OpenRouter);
        assert_eq!(limits_for(&hosted).max_tokens, DEFAULT_MAX_TOKENS);
        let thinking = ProviderSettings {
            max_tokens: Some(1_000),
            thinking_budget: Some(2_048),
            ..ProviderSettings::default()
        };
        let limits = limits_for(&thinking);
        assert_eq!(
            limits.max_tokens, 3_048,
            "thinking comes on top of the answer"
        );
        assert_eq!(limits.problem(), None);
    }

    #[test]
    fn a_limit_out_of_range_is_refused_before_any_request() {
        let settings = ProviderSettings {
            base_url: "http://127.0.0.1:9/v1".into(),
            model: "m".into(),
            max_tokens: Some(0),
            ..ProviderSettings::for_preset(ProviderPreset::Custom)
        };
        let Err(error) = build_provider(&settings, Arc::new(StaticKey(None)), None) else {
            panic!("a limit of 0 was accepted");
        };
        assert_eq!(
            error.to_string(),
            "The OpenAI-compatible server settings are not usable: The answer needs room: allow at least 1 token."
        );
    }

    #[test]
    fn settings_problems_are_explained() {
        let mut s = ProviderSettings::for_preset(ProviderPreset::Custom);
        assert!(s.problem().unwrap().contains("base URL"));
        s.base_url = "ftp://x".into();
        assert!(s.problem().unwrap().contains("not an http(s) URL"));
        s.base_url = "http://127.0.0.1:9/v1".into();
        assert!(s.problem().unwrap().contains("model"));
        s.model = "m".into();
        assert_eq!(s.problem(), None);
        assert!(build_provider(&s, Arc::new(StaticKey(None)), None).is_ok());
    }
}
