//! The model service a user picks in Settings: its preset and what can be changed about it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The Anthropic Messages API's base URL.
pub const ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";
/// The OpenAI API's base URL.
pub const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";
/// OpenRouter's OpenAI-compatible base URL.
pub const OPENROUTER_BASE_URL: &str = "https://openrouter.ai/api/v1";
/// Ollama's OpenAI-compatible base URL on this computer.
pub const OLLAMA_BASE_URL: &str = "http://localhost:11434/v1";
/// How long connecting may take by default.
pub const DEFAULT_CONNECT_TIMEOUT_SECS: u32 = 10;
/// How long the server may stay silent by default.
pub const DEFAULT_IDLE_TIMEOUT_SECS: u32 = 120;
/// Attempts per request by default, the first included.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 5;
/// The output limit of a request to a hosted service (without thinking): room for a long file
/// and within what the presets' models accept.
pub const DEFAULT_MAX_TOKENS: u32 = 8_192;
/// The output limit of a request to a server on this computer or the local network: at local
/// speeds a small model that rambles to 8,192 tokens keeps the user waiting for minutes.
pub const LOCAL_MAX_TOKENS: u32 = 2_048;
/// The largest output limit the settings accept (no model the presets serve answers longer).
pub const MAX_MAX_TOKENS: u32 = 128_000;

pub use crate::local_url::is_local_url;

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
            Self::Anthropic => ANTHROPIC_BASE_URL,
            Self::OpenAi => OPENAI_BASE_URL,
            Self::OpenRouter => OPENROUTER_BASE_URL,
            Self::Ollama => OLLAMA_BASE_URL,
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

    /// Whether requests to the preset's own URL fail without a key (local servers need none;
    /// a custom one may). [`ProviderSettings::requires_key`] also looks at the base URL.
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

/// How hard an OpenAI reasoning model thinks before it answers (`reasoning_effort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ReasoningEffort {
    Minimal,
    Low,
    Medium,
    High,
}

impl ReasoningEffort {
    pub const ALL: [ReasoningEffort; 4] = [Self::Minimal, Self::Low, Self::Medium, Self::High];

    /// The value sent as `reasoning_effort`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Minimal => "minimal",
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
        }
    }
}

impl std::fmt::Display for ReasoningEffort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ReasoningEffort {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|effort| effort.as_str() == text)
            .ok_or_else(|| {
                format!("unknown reasoning effort `{text}`: use minimal, low, medium or high")
            })
    }
}

/// The smallest thinking budget Anthropic accepts, in tokens.
pub const MIN_THINKING_BUDGET: u32 = 1_024;

/// What is wrong with a thinking budget of `budget` tokens, for the user; `None` when it can be
/// sent. (It must also stay below the request's `max_tokens`, which the engine raises to make
/// room for the answer beside it.)
pub fn thinking_budget_problem(budget: u32) -> Option<String> {
    (budget < MIN_THINKING_BUDGET).then(|| {
        format!(
            "A thinking budget of {budget} tokens is too small: Anthropic needs at least \
             {MIN_THINKING_BUDGET}."
        )
    })
}

/// What is wrong with an output limit of `tokens`, for the user; `None` when it can be sent.
pub fn max_tokens_problem(tokens: u32) -> Option<String> {
    if tokens == 0 {
        Some("The answer needs room: allow at least 1 token.".into())
    } else if tokens > MAX_MAX_TOKENS {
        Some(format!(
            "An answer of {tokens} tokens is more than any model gives: at most {MAX_MAX_TOKENS}."
        ))
    } else {
        None
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
    /// Record every response of the provider raw, for a bug report (the engine's HTTP settings
    /// say where).
    #[serde(default)]
    pub record_streams: bool,
    /// Extended thinking (Anthropic): the tokens the model may think with before it answers;
    /// `None` turns thinking off. At least [`MIN_THINKING_BUDGET`].
    #[serde(default)]
    #[ts(optional = nullable)]
    pub thinking_budget: Option<u32>,
    /// How hard a reasoning model thinks (OpenAI-compatible servers); `None` leaves the
    /// server's default and sends nothing.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub reasoning_effort: Option<ReasoningEffort>,
    /// The most tokens one answer may have (thinking not counted); `None` uses
    /// [`ProviderSettings::default_max_tokens`] (2,048 for a local server). From 1 to
    /// [`MAX_MAX_TOKENS`].
    #[serde(default)]
    #[ts(optional = nullable)]
    pub max_tokens: Option<u32>,
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
        Self {
            preset,
            base_url: preset.default_base_url().to_owned(),
            model: preset.default_model().to_owned(),
            text_protocol: false,
            connect_timeout_secs: DEFAULT_CONNECT_TIMEOUT_SECS,
            idle_timeout_secs: DEFAULT_IDLE_TIMEOUT_SECS,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            context_window: None,
            record_streams: false,
            thinking_budget: None,
            reasoning_effort: None,
            max_tokens: None,
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

    /// Whether the base URL is on this computer or the local network ([`is_local_url`]).
    pub fn is_local(&self) -> bool {
        is_local_url(self.effective_base_url())
    }

    /// Whether requests fail without a key: the hosted presets' do, unless their base URL
    /// points at a local server (a proxy, say), which needs none.
    pub fn requires_key(&self) -> bool {
        self.preset.requires_key() && !self.is_local()
    }

    /// The output limit used when the user set none: [`LOCAL_MAX_TOKENS`] for Ollama, LM Studio
    /// and a custom server on this computer or the local network; the hosted presets keep
    /// [`DEFAULT_MAX_TOKENS`], which their models accept.
    pub fn default_max_tokens(&self) -> u32 {
        let local = match self.preset {
            ProviderPreset::Ollama | ProviderPreset::LmStudio => true,
            ProviderPreset::Custom => self.is_local(),
            ProviderPreset::Anthropic | ProviderPreset::OpenAi | ProviderPreset::OpenRouter => {
                false
            }
        };
        if local {
            LOCAL_MAX_TOKENS
        } else {
            DEFAULT_MAX_TOKENS
        }
    }

    /// The most tokens one answer may have: the user's setting, else the default.
    pub fn max_tokens(&self) -> u32 {
        self.max_tokens.unwrap_or_else(|| self.default_max_tokens())
    }

    /// What is wrong with these settings, for the user; `None` when they can be used.
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
        if let Some(problem) = self.max_tokens.and_then(max_tokens_problem) {
            return Some(problem);
        }
        self.thinking_budget().and_then(thinking_budget_problem)
    }

    /// The thinking budget, when the preset speaks the Anthropic API (others have none).
    pub fn thinking_budget(&self) -> Option<u32> {
        self.thinking_budget.filter(|_| self.preset.is_anthropic())
    }

    /// The reasoning effort, when the preset speaks the OpenAI API (Anthropic has none).
    pub fn reasoning_effort(&self) -> Option<ReasoningEffort> {
        self.reasoning_effort
            .filter(|_| !self.preset.is_anthropic())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::assert_bindings_current;

    #[test]
    fn bindings_are_up_to_date() {
        assert_bindings_current::<ProviderPreset>();
        assert_bindings_current::<ProviderSettings>();
        assert_bindings_current::<ReasoningEffort>();
    }

    #[test]
    fn thinking_and_effort_load_from_old_files_and_apply_to_their_own_api_only() {
        let mut saved = serde_json::to_value(ProviderSettings::default()).unwrap();
        let fields = saved.as_object_mut().unwrap();
        fields.remove("thinking_budget");
        fields.remove("reasoning_effort");
        let loaded: ProviderSettings = serde_json::from_value(saved).unwrap();
        assert_eq!(
            (loaded.thinking_budget, loaded.reasoning_effort),
            (None, None)
        );

        let anthropic = ProviderSettings {
            thinking_budget: Some(4_096),
            reasoning_effort: Some(ReasoningEffort::High),
            ..ProviderSettings::default()
        };
        assert_eq!(anthropic.thinking_budget(), Some(4_096));
        assert_eq!(anthropic.reasoning_effort(), None);
        let openai = ProviderSettings {
            preset: ProviderPreset::OpenAi,
            ..anthropic.clone()
        };
        assert_eq!(openai.thinking_budget(), None);
        assert_eq!(openai.reasoning_effort(), Some(ReasoningEffort::High));

        let small = ProviderSettings {
            thinking_budget: Some(500),
            ..ProviderSettings::default()
        };
        assert_eq!(
            small.problem().unwrap(),
            "A thinking budget of 500 tokens is too small: Anthropic needs at least 1024."
        );
        let elsewhere = ProviderSettings {
            preset: ProviderPreset::OpenAi,
            ..small
        };
        assert_eq!(elsewhere.problem(), None, "not sent, so not refused");
    }

    #[test]
    fn reasoning_effort_parses_its_api_spelling_only() {
        assert_eq!("minimal".parse(), Ok(ReasoningEffort::Minimal));
        assert_eq!("high".parse(), Ok(ReasoningEffort::High));
        assert!(
            "max"
                .parse::<ReasoningEffort>()
                .unwrap_err()
                .contains("minimal, low, medium or high")
        );
        assert_eq!(serde_json::to_value(ReasoningEffort::Low).unwrap(), "low");
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

    #[test]
    fn local_presets_need_no_key_and_point_at_localhost() {
        for preset in [ProviderPreset::Ollama, ProviderPreset::LmStudio] {
            assert!(!preset.requires_key());
            assert!(preset.default_base_url().starts_with("http://localhost:"));
        }
        assert!(ProviderPreset::Anthropic.requires_key());
    }

    #[test]
    fn max_tokens_defaults_by_where_the_server_is_and_is_checked() {
        let mut saved = serde_json::to_value(ProviderSettings::default()).unwrap();
        saved.as_object_mut().unwrap().remove("max_tokens");
        let loaded: ProviderSettings = serde_json::from_value(saved).unwrap();
        assert_eq!(
            loaded.max_tokens, None,
            "settings saved before the field load"
        );
        assert_eq!(loaded.max_tokens(), DEFAULT_MAX_TOKENS);

        for preset in [ProviderPreset::Ollama, ProviderPreset::LmStudio] {
            assert_eq!(
                ProviderSettings::for_preset(preset).max_tokens(),
                LOCAL_MAX_TOKENS
            );
        }
        let custom = |url: &str| ProviderSettings {
            base_url: url.into(),
            model: "m".into(),
            ..ProviderSettings::for_preset(ProviderPreset::Custom)
        };
        assert_eq!(
            custom("http://127.0.0.1:8000/v1").max_tokens(),
            LOCAL_MAX_TOKENS
        );
        assert_eq!(
            custom("http://[::1]:8000/v1").max_tokens(),
            LOCAL_MAX_TOKENS
        );
        assert_eq!(
            custom("http://192.168.1.9:8000/v1").max_tokens(),
            LOCAL_MAX_TOKENS
        );
        assert_eq!(
            custom("https://llm.example.com/v1").max_tokens(),
            DEFAULT_MAX_TOKENS
        );
        for preset in [
            ProviderPreset::Anthropic,
            ProviderPreset::OpenAi,
            ProviderPreset::OpenRouter,
        ] {
            assert_eq!(
                ProviderSettings::for_preset(preset).max_tokens(),
                DEFAULT_MAX_TOKENS
            );
            let proxied = ProviderSettings {
                base_url: "http://127.0.0.1:4000/v1".into(),
                ..ProviderSettings::for_preset(preset)
            };
            assert_eq!(proxied.max_tokens(), DEFAULT_MAX_TOKENS, "a hosted model's");
        }

        let set = |tokens| ProviderSettings {
            max_tokens: Some(tokens),
            ..custom("http://localhost:8000/v1")
        };
        assert_eq!(set(512).max_tokens(), 512);
        assert_eq!(set(512).problem(), None);
        assert_eq!(set(MAX_MAX_TOKENS).problem(), None);
        assert_eq!(
            set(0).problem().unwrap(),
            "The answer needs room: allow at least 1 token."
        );
        assert_eq!(
            set(1_000_000).problem().unwrap(),
            "An answer of 1000000 tokens is more than any model gives: at most 128000."
        );
    }

    #[test]
    fn a_key_is_required_by_hosted_presets_only_at_their_hosted_urls() {
        assert!(ProviderSettings::default().requires_key());
        assert!(ProviderSettings::for_preset(ProviderPreset::OpenRouter).requires_key());
        let proxy = ProviderSettings {
            base_url: "http://127.0.0.1:4000/v1".into(),
            ..ProviderSettings::for_preset(ProviderPreset::OpenAi)
        };
        assert!(!proxy.requires_key());
        for preset in [
            ProviderPreset::Ollama,
            ProviderPreset::LmStudio,
            ProviderPreset::Custom,
        ] {
            assert!(!ProviderSettings::for_preset(preset).requires_key());
        }
    }

    #[test]
    fn an_empty_base_url_means_the_presets() {
        let mut s = ProviderSettings::for_preset(ProviderPreset::OpenRouter);
        s.base_url = "  ".into();
        assert_eq!(s.effective_base_url(), "https://openrouter.ai/api/v1");
    }
}
