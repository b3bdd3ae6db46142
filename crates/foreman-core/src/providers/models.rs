//! [`list_models`]: asks the provider the settings describe which models it has, for the
//! settings' model picker.
//!
//! Each kind of server lists its models its own way:
//!
//! - Anthropic: `GET {base}/v1/models` with `x-api-key` and `anthropic-version`, in pages
//!   (`has_more`, `last_id`, asked for again with `after_id`);
//! - Ollama: its native `GET {host}/api/tags` (the preset's base URL ends in `/v1`, the
//!   OpenAI-compatible API; the native one is beside it);
//! - LM Studio: its native `GET {host}/api/v0/models`, which tells each model's
//!   `max_context_length`, else the OpenAI-compatible list;
//! - any other (OpenAI, OpenRouter, vLLM...): `GET {base}/models` with the key as a bearer
//!   token; OpenRouter adds `context_length`, vLLM `max_model_len`.
//!
//! The whole listing has one deadline ([`LIST_TIMEOUT`] by default). The key never appears in
//! an error: what the server sends back is scrubbed of it.

use std::time::Duration;

use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use reqwest::{Client, RequestBuilder};
use serde::Deserialize;
use thiserror::Error;

pub use foreman_protocol::ModelInfo;

use super::anthropic::AnthropicConfig;
use super::http::error_message;
use super::keys::KeySource;
use super::preset::{ProviderPreset, ProviderSettings};
use super::redact::scrub;
use crate::secrets::Secret;

/// How long listing may take by default, pages included.
pub const LIST_TIMEOUT: Duration = Duration::from_secs(10);

/// Most pages of an Anthropic list followed (a server that always says `has_more` ends here).
const MAX_PAGES: usize = 50;

/// Why the models could not be listed. Messages are for the user and never hold the key.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelListError {
    /// The provider needs a key and none is stored.
    #[error("no API key for {provider}; set {hint}")]
    MissingKey { provider: String, hint: String },
    /// The settings cannot be used to ask (no base URL, one that is not http(s), a key that
    /// cannot go in a header).
    #[error("the {provider} settings are not usable: {message}")]
    Config { provider: String, message: String },
    /// 401/403.
    #[error("{provider} rejected the API key (HTTP {status}): {message}")]
    Auth {
        provider: String,
        status: u16,
        message: String,
    },
    /// Any other status but success.
    #[error("{provider} answered HTTP {status}: {message}")]
    Status {
        provider: String,
        status: u16,
        message: String,
    },
    /// No complete answer within the deadline.
    #[error("{provider} did not answer within {} seconds", timeout.as_secs_f32())]
    Timeout { provider: String, timeout: Duration },
    /// The server could not be reached.
    #[error("cannot reach {provider}: {message}")]
    Connect { provider: String, message: String },
    /// The answer is not a models list.
    #[error("{provider} sent something that is not a models list: {message}")]
    Parse { provider: String, message: String },
}

/// The models the provider of `settings` offers, asking with the key of `key` (when there is
/// one), within `timeout`. Anthropic's order is kept (newest first); other lists are sorted by
/// id.
pub async fn list_models(
    settings: &ProviderSettings,
    key: &dyn KeySource,
    timeout: Duration,
) -> Result<Vec<ModelInfo>, ModelListError> {
    let lister = Lister::new(settings, key, timeout)?;
    match tokio::time::timeout(timeout, lister.list()).await {
        Ok(result) => result,
        Err(_) => Err(lister.timed_out()),
    }
}

/// One listing: where to ask, with what, and how to name the provider in errors.
struct Lister {
    preset: ProviderPreset,
    provider: String,
    base_url: String,
    secret: Option<Secret>,
    timeout: Duration,
    client: Client,
}

impl Lister {
    fn new(
        settings: &ProviderSettings,
        key: &dyn KeySource,
        timeout: Duration,
    ) -> Result<Self, ModelListError> {
        let preset = settings.preset;
        let provider = preset.label().to_owned();
        let config = |message: String| ModelListError::Config {
            provider: provider.clone(),
            message,
        };
        let base_url = settings
            .effective_base_url()
            .trim_end_matches('/')
            .to_owned();
        if base_url.is_empty() {
            return Err(config("set the server's base URL first".into()));
        }
        match url::Url::parse(&base_url) {
            Ok(url) if matches!(url.scheme(), "http" | "https") => {}
            _ => return Err(config(format!("`{base_url}` is not an http(s) URL"))),
        }
        let secret = key.api_key();
        if secret.is_none() && settings.requires_key() {
            return Err(ModelListError::MissingKey {
                provider,
                hint: key.describe(),
            });
        }
        let connect = Duration::from_secs(u64::from(settings.connect_timeout_secs.max(1)));
        let client = crate::tls::client_builder()
            .connect_timeout(connect.min(timeout))
            .timeout(timeout)
            .build()
            .map_err(|e| config(format!("cannot set up HTTP: {e}")))?;
        Ok(Self {
            preset,
            provider,
            base_url,
            secret,
            timeout,
            client,
        })
    }

    fn timed_out(&self) -> ModelListError {
        ModelListError::Timeout {
            provider: self.provider.clone(),
            timeout: self.timeout,
        }
    }

    async fn list(&self) -> Result<Vec<ModelInfo>, ModelListError> {
        let mut models = match self.preset {
            ProviderPreset::Anthropic => return self.anthropic().await,
            ProviderPreset::Ollama => self.ollama().await?,
            ProviderPreset::LmStudio => match self.lm_studio().await {
                // An LM Studio without the native API (older versions) still has the other.
                Err(ModelListError::Status { .. }) => self.openai().await?,
                other => other?,
            },
            _ => self.openai().await?,
        };
        models.sort_by(|a, b| a.id.cmp(&b.id));
        models.dedup_by(|a, b| a.id == b.id);
        Ok(models)
    }

    /// The server's own API beside its OpenAI-compatible `/v1`.
    fn native_root(&self) -> &str {
        self.base_url.strip_suffix("/v1").unwrap_or(&self.base_url)
    }

    async fn openai(&self) -> Result<Vec<ModelInfo>, ModelListError> {
        let mut request = self.client.get(format!("{}/models", self.base_url));
        if let Some(secret) = &self.secret {
            let value = self.header(&format!("Bearer {}", secret.expose()))?;
            request = request.header(AUTHORIZATION, value);
        }
        let list: OpenAiList = self.fetch(request).await?;
        Ok(list.data.into_iter().map(OpenAiModel::into_info).collect())
    }

    async fn lm_studio(&self) -> Result<Vec<ModelInfo>, ModelListError> {
        let request = self
            .client
            .get(format!("{}/api/v0/models", self.native_root()));
        let list: OpenAiList = self.fetch(request).await?;
        Ok(list
            .data
            .into_iter()
            .filter(|m| m.kind.as_deref() != Some("embeddings"))
            .map(OpenAiModel::into_info)
            .collect())
    }

    async fn ollama(&self) -> Result<Vec<ModelInfo>, ModelListError> {
        let request = self.client.get(format!("{}/api/tags", self.native_root()));
        let tags: OllamaTags = self.fetch(request).await?;
        Ok(tags
            .models
            .into_iter()
            .map(|m| ModelInfo::new(m.name))
            .collect())
    }

    async fn anthropic(&self) -> Result<Vec<ModelInfo>, ModelListError> {
        let mut headers = HeaderMap::new();
        if let Some(secret) = &self.secret {
            headers.insert("x-api-key", self.header(secret.expose())?);
        }
        headers.insert(
            "anthropic-version",
            HeaderValue::from_static(AnthropicConfig::API_VERSION),
        );
        let url = format!("{}/v1/models", self.base_url);
        let mut models = Vec::new();
        let mut after: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut query = vec![("limit", "1000".to_owned())];
            if let Some(id) = after.take() {
                query.push(("after_id", id));
            }
            let request = self.client.get(&url).headers(headers.clone()).query(&query);
            let page: AnthropicPage = self.fetch(request).await?;
            models.extend(page.data.into_iter().map(|m| ModelInfo {
                display_name: m.display_name.filter(|name| *name != m.id),
                id: m.id,
                context_window: None,
            }));
            match page.last_id {
                Some(last) if page.has_more => after = Some(last),
                _ => break,
            }
        }
        Ok(models)
    }

    /// The key as a header value, marked sensitive.
    fn header(&self, value: &str) -> Result<HeaderValue, ModelListError> {
        let mut value = HeaderValue::from_str(value).map_err(|_| ModelListError::Config {
            provider: self.provider.clone(),
            message: "the API key contains characters that cannot be sent in a header".into(),
        })?;
        value.set_sensitive(true);
        Ok(value)
    }

    /// Sends `request` and reads its JSON answer as `T`.
    async fn fetch<T: serde::de::DeserializeOwned>(
        &self,
        request: RequestBuilder,
    ) -> Result<T, ModelListError> {
        let response = request.send().await.map_err(|e| self.send_error(&e))?;
        let status = response.status();
        let body = response.text().await.map_err(|e| self.send_error(&e))?;
        let body = scrub(&body, self.secret.as_ref());
        if !status.is_success() {
            let provider = self.provider.clone();
            let message = error_message(&body);
            let status = status.as_u16();
            return Err(if matches!(status, 401 | 403) {
                ModelListError::Auth {
                    provider,
                    status,
                    message,
                }
            } else {
                ModelListError::Status {
                    provider,
                    status,
                    message,
                }
            });
        }
        serde_json::from_str(&body).map_err(|e| ModelListError::Parse {
            provider: self.provider.clone(),
            message: e.to_string(),
        })
    }

    fn send_error(&self, error: &reqwest::Error) -> ModelListError {
        if error.is_timeout() {
            return self.timed_out();
        }
        let mut message = error.to_string();
        let mut source = std::error::Error::source(error);
        while let Some(cause) = source {
            message.push_str(": ");
            message.push_str(&cause.to_string());
            source = cause.source();
        }
        ModelListError::Connect {
            provider: self.provider.clone(),
            message: scrub(&message, self.secret.as_ref()),
        }
    }
}

/// `{"data": [...]}` of the OpenAI-compatible list and LM Studio's native one.
#[derive(Debug, Deserialize)]
struct OpenAiList {
    data: Vec<OpenAiModel>,
}

#[derive(Debug, Deserialize)]
struct OpenAiModel {
    id: String,
    /// OpenRouter's readable name.
    #[serde(default)]
    name: Option<String>,
    /// OpenRouter.
    #[serde(default)]
    context_length: Option<f64>,
    /// vLLM.
    #[serde(default)]
    max_model_len: Option<f64>,
    /// LM Studio's native list.
    #[serde(default)]
    max_context_length: Option<f64>,
    /// LM Studio's native list: `llm`, `vlm` or `embeddings`.
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

impl OpenAiModel {
    fn into_info(self) -> ModelInfo {
        let window = self
            .context_length
            .or(self.max_context_length)
            .or(self.max_model_len);
        ModelInfo {
            display_name: self.name.filter(|name| *name != self.id),
            id: self.id,
            context_window: window.and_then(tokens),
        }
    }
}

/// A token count from a JSON number (some servers send `8192.0`).
fn tokens(value: f64) -> Option<u32> {
    // Truncation is intended: the value is checked to be a whole number in range.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (value.is_finite() && value >= 1.0 && value <= f64::from(u32::MAX)).then_some(value as u32)
}

/// Ollama's `/api/tags`.
#[derive(Debug, Deserialize)]
struct OllamaTags {
    models: Vec<OllamaModel>,
}

#[derive(Debug, Deserialize)]
struct OllamaModel {
    name: String,
}

/// One page of Anthropic's `/v1/models`.
#[derive(Debug, Deserialize)]
struct AnthropicPage {
    data: Vec<AnthropicModel>,
    #[serde(default)]
    has_more: bool,
    #[serde(default)]
    last_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct AnthropicModel {
    id: String,
    #[serde(default)]
    display_name: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::keys::StaticKey;

    #[test]
    fn context_windows_come_from_whichever_field_the_server_uses() {
        let parse = |json: &str| {
            serde_json::from_str::<OpenAiModel>(json)
                .unwrap()
                .into_info()
        };
        assert_eq!(
            parse(r#"{"id":"a/b","name":"A: B","context_length":131072}"#),
            ModelInfo {
                id: "a/b".into(),
                display_name: Some("A: B".into()),
                context_window: Some(131_072),
            }
        );
        assert_eq!(
            parse(r#"{"id":"m","max_model_len":32768.0}"#).context_window,
            Some(32_768)
        );
        assert_eq!(
            parse(r#"{"id":"m","name":"m","context_length":null}"#),
            ModelInfo::new("m")
        );
        assert_eq!(tokens(-1.0), None);
        assert_eq!(tokens(f64::NAN), None);
    }

    #[tokio::test]
    async fn settings_that_cannot_be_asked_are_refused_before_any_request() {
        let custom = ProviderSettings::for_preset(ProviderPreset::Custom);
        let error = list_models(&custom, &StaticKey(None), LIST_TIMEOUT)
            .await
            .unwrap_err();
        assert!(matches!(error, ModelListError::Config { .. }), "{error}");
        let anthropic = ProviderSettings::default();
        let error = list_models(&anthropic, &StaticKey(None), LIST_TIMEOUT)
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "no API key for Anthropic; set the API key setting"
        );
    }
}
