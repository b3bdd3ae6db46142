//! Provider presets and the settings a person chooses in the app: which service, which model,
//! where, and how patiently. [`build_provider`] turns them into a [`Provider`].

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::Provider;
use super::anthropic::{AnthropicConfig, AnthropicProvider};
use super::error::ProviderError;
use super::http::HttpSettings;
use super::keys::SharedKeySource;
use super::openai::{OpenAiConfig, OpenAiProvider};

/// A known kind of model service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ProviderPreset {
    Anthropic,
    #[serde(rename = "openai")]
    OpenAi,
    #[serde(rename = "openrouter")]
    OpenRouter,
    Ollama,
    #[serde(rename = "lmstudio")]
    LmStudio,
    /// Any OpenAI-compatible endpoint.
    Custom,
}

impl ProviderPreset {
    pub const ALL: [ProviderPreset; 6] = [
        Self::Anthropic,
        Self::OpenAi,
        Self::OpenRouter,
        Self::Ollama,
        Self::LmStudio,
        Self::Custom,
    ];

    /// The name shown in settings.
    pub fn label(self) -> &'static str {
        match self {
            Self::Anthropic => "Anthropic",
            Self::OpenAi => "OpenAI",
            Self::OpenRouter => "OpenRouter",
            Self::Ollama => "Ollama (this computer)",
            Self::LmStudio => "LM Studio (this computer)",
            Self::Custom => "OpenAI-compatible server",
        }
    }

    /// The base URL the official SDKs would use.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Self::Anthropic => AnthropicConfig::DEFAULT_BASE_URL,
            Self::OpenAi => OpenAiConfig::DEFAULT_BASE_URL,
            Self::OpenRouter => OpenAiConfig::OPENROUTER_BASE_URL,
            Self::Ollama => OpenAiConfig::OLLAMA_BASE_URL,
            Self::LmStudio => "http://localhost:1234/v1",
            Self::Custom => "",
        }
    }

    /// A sensible first model.
    pub fn default_model(self) -> &'static str {
        match self {
            Self::Anthropic => "claude-sonnet-4-5",
            Self::OpenAi => "gpt-4o",
            Self::OpenRouter => "anthropic/claude-sonnet-4.5",
            Self::Ollama => "qwen2.5-coder:14b",
            Self::LmStudio | Self::Custom => "",
        }
    }

    /// Whether requests fail without a key (local servers need none; a custom one may).
    pub fn requires_key(self) -> bool {
        matches!(self, Self::Anthropic | Self::OpenAi | Self::OpenRouter)
    }

    /// The keychain account its key is stored under.
    pub fn keyring_account(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::OpenAi => "openai",
            Self::OpenRouter => "openrouter",
            Self::Ollama => "ollama",
            Self::LmStudio => "lmstudio",
            Self::Custom => "custom",
        }
    }

    /// True for the Anthropic Messages API, false for OpenAI Chat Completions.
    pub fn is_anthropic(self) -> bool {
        self == Self::Anthropic
    }
}

/// The provider part of the settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProviderSettings {
    pub preset: ProviderPreset,
    /// Empty means the preset's default.
    pub base_url: String,
    pub model: String,
    /// Use the JSON text protocol instead of native tool calling (models without tools).
    pub text_protocol: bool,
    pub connect_timeout_secs: u32,
    /// No byte from the server for this long ends the request.
    pub idle_timeout_secs: u32,
    /// Attempts per request, including the first.
    pub max_attempts: u32,
    /// The model's context window in tokens, for a model Foreman does not know (a local one,
    /// say); `None` uses the known window of the model, else 200,000.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub context_window: Option<u32>,
    /// Record every response of the provider raw, for a bug report (see
    /// [`HttpSettings::record_to`]; the caller of [`build_provider`] says where).
    #[serde(default)]
    pub record_streams: bool,
}

/// The smallest context window the settings accept.
pub const MIN_CONTEXT_WINDOW: u32 = 2_048;

impl Default for ProviderSettings {
    fn default() -> Self {
        Self::for_preset(ProviderPreset::Anthropic)
    }
}

impl ProviderSettings {
    /// The defaults of `preset`.
    pub fn for_preset(preset: ProviderPreset) -> Self {
        let http = HttpSettings::default();
        Self {
            preset,
            base_url: preset.default_base_url().to_owned(),
            model: preset.default_model().to_owned(),
            text_protocol: false,
            connect_timeout_secs: secs(http.connect_timeout),
            idle_timeout_secs: secs(http.idle_timeout),
            max_attempts: http.retry.max_attempts,
            context_window: None,
            record_streams: false,
        }
    }

    /// The base URL to use.
    pub fn effective_base_url(&self) -> &str {
        let url = self.base_url.trim();
        if url.is_empty() {
            self.preset.default_base_url()
        } else {
            url
        }
    }

    /// What is wrong with these settings, for the person; `None` when they can be used.
    pub fn problem(&self) -> Option<String> {
        let url = self.effective_base_url();
        if url.is_empty() {
            return Some(
                "Set the server's base URL (for example http://localhost:8000/v1).".into(),
            );
        }
        match url::Url::parse(url) {
            Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => {}
            _ => return Some(format!("The base URL `{url}` is not an http(s) URL.")),
        }
        if self.model.trim().is_empty() {
            return Some("Choose a model.".into());
        }
        if let Some(window) = self.context_window
            && window < MIN_CONTEXT_WINDOW
        {
            return Some(format!(
                "A context window of {window} tokens is too small: at least {MIN_CONTEXT_WINDOW}."
            ));
        }
        None
    }

    fn http(&self) -> HttpSettings {
        let mut http = HttpSettings {
            connect_timeout: Duration::from_secs(u64::from(self.connect_timeout_secs.max(1))),
            idle_timeout: Duration::from_secs(u64::from(self.idle_timeout_secs.max(1))),
            ..HttpSettings::default()
        };
        http.retry.max_attempts = self.max_attempts.max(1);
        http
    }
}

fn secs(duration: Duration) -> u32 {
    u32::try_from(duration.as_secs()).unwrap_or(u32::MAX)
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
        ..settings.http()
    };
    if settings.preset.is_anthropic() {
        let config = AnthropicConfig::new(key).with_base_url(url).with_http(http);
        Ok(Arc::new(AnthropicProvider::new(config)?))
    } else {
        let config = OpenAiConfig::new(url, key).with_http(http);
        Ok(Arc::new(OpenAiProvider::new(config)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::StaticKey;

    #[test]
    fn bindings_are_up_to_date() {
        crate::bindings::assert_bindings_current::<ProviderPreset>();
        crate::bindings::assert_bindings_current::<ProviderSettings>();
    }

    #[test]
    fn presets_serialise_with_their_settings_names() {
        let names: Vec<String> = ProviderPreset::ALL
            .iter()
            .map(|p| {
                serde_json::to_value(p)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(
            names,
            [
                "anthropic",
                "openai",
                "openrouter",
                "ollama",
                "lmstudio",
                "custom"
            ]
        );
    }

    #[test]
    fn the_context_window_is_optional_and_too_small_a_one_is_refused() {
        let mut saved = serde_json::to_value(ProviderSettings::default()).unwrap();
        saved.as_object_mut().unwrap().remove("context_window");
        let loaded: ProviderSettings = serde_json::from_value(saved).unwrap();
        assert_eq!(
            loaded.context_window, None,
            "settings saved before the field still load"
        );
        assert_eq!(loaded.problem(), None);
        let small = ProviderSettings {
            context_window: Some(1_000),
            ..ProviderSettings::default()
        };
        assert!(small.problem().unwrap().contains("too small"));
        let local = ProviderSettings {
            context_window: Some(8_192),
            ..ProviderSettings::default()
        };
        assert_eq!(local.problem(), None);
    }

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
    fn local_presets_need_no_key_and_point_at_localhost() {
        for preset in [ProviderPreset::Ollama, ProviderPreset::LmStudio] {
            assert!(!preset.requires_key());
            assert!(preset.default_base_url().starts_with("http://localhost:"));
        }
        assert!(ProviderPreset::Anthropic.requires_key());
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

    #[test]
    fn an_empty_base_url_means_the_presets() {
        let mut s = ProviderSettings::for_preset(ProviderPreset::OpenRouter);
        s.base_url = "  ".into();
        assert_eq!(s.effective_base_url(), "https://openrouter.ai/api/v1");
    }
}
