//! [`HttpProvider`]: the one [`Provider`] over HTTP, generic over its [`Api`] (Anthropic
//! Messages, OpenAI Chat Completions).

use reqwest::Client;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderValue};
use tokio_util::sync::CancellationToken;

use super::api::Api;
use super::error::ProviderError;
use super::http::{StreamRequest, build_client, error_stream, spawn_stream};
use super::provider::{EventStream, Provider};
use super::request::ProviderRequest;

/// Talks to a model API over HTTP.
#[derive(Debug, Clone)]
pub struct HttpProvider<A: Api> {
    api: A,
    client: Client,
}

impl<A: Api> HttpProvider<A> {
    pub fn new(api: A) -> Result<Self, ProviderError> {
        let client = build_client(api.http(), A::NAME)?;
        Ok(Self { api, client })
    }

    /// The URL requests go to.
    pub fn endpoint(&self) -> String {
        self.api.endpoint()
    }

    fn prepare(&self, request: &ProviderRequest) -> Result<StreamRequest, ProviderError> {
        if let Some(problem) = request.limits.problem() {
            return Err(ProviderError::Config {
                provider: A::NAME.to_owned(),
                message: problem,
            });
        }
        let key_source = self.api.key();
        let key = key_source.api_key();
        if key.is_none() && self.api.requires_key() {
            return Err(ProviderError::MissingKey {
                provider: A::NAME.to_owned(),
                hint: key_source.describe(),
                key_can_change: key_source.can_change(),
            });
        }
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
        self.api.add_headers(key.as_ref(), &mut headers)?;
        let body =
            serde_json::to_vec(&self.api.body(request)).map_err(|err| ProviderError::Protocol {
                provider: A::NAME.to_owned(),
                message: format!("cannot encode the request: {err}"),
            })?;
        Ok(StreamRequest {
            provider: A::NAME,
            url: self.api.endpoint(),
            headers,
            body,
            secret: key,
            key_source: key_source.clone(),
            format: A::FORMAT,
        })
    }
}

impl<A: Api> Provider for HttpProvider<A> {
    fn name(&self) -> &str {
        A::NAME
    }

    fn stream(&self, request: ProviderRequest, cancel: CancellationToken) -> EventStream {
        match self.prepare(&request) {
            Ok(prepared) => spawn_stream(
                self.client.clone(),
                self.api.http().clone(),
                prepared,
                cancel,
            ),
            Err(error) => error_stream(error),
        }
    }
}
