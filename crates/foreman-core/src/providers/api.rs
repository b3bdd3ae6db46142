//! [`Api`]: what differs between the HTTP model APIs — where a request goes, its headers and its
//! body. Everything else (the key, the request's encoding, the stream, retries) is
//! [`HttpProvider`](super::http_provider::HttpProvider)'s, written once.

use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::Value;

use super::error::ProviderError;
use super::format::WireFormat;
use super::http::HttpSettings;
use super::keys::SharedKeySource;
use super::request::ProviderRequest;
use crate::secrets::Secret;

/// One HTTP model API, as its configuration.
pub trait Api: std::fmt::Debug + Clone + Send + Sync + 'static {
    /// The display name (`Anthropic`).
    const NAME: &'static str;
    /// How its responses stream.
    const FORMAT: WireFormat;

    /// The URL requests go to.
    fn endpoint(&self) -> String;

    /// Where the key comes from.
    fn key(&self) -> &SharedKeySource;

    /// Whether a request without a key is refused before it is sent (a local server needs none).
    fn requires_key(&self) -> bool;

    fn http(&self) -> &HttpSettings;

    /// Adds the API's headers (the key's among them) to `headers`, which already have the
    /// content type and `Accept: text/event-stream`.
    fn add_headers(
        &self,
        key: Option<&Secret>,
        headers: &mut HeaderMap,
    ) -> Result<(), ProviderError>;

    /// The JSON body of a streaming request.
    fn body(&self, request: &ProviderRequest) -> Value;
}

/// `value` as a header value, or a configuration error naming `what` it is.
pub fn header_value(provider: &str, value: &str, what: &str) -> Result<HeaderValue, ProviderError> {
    HeaderValue::from_str(value).map_err(|_| ProviderError::Config {
        provider: provider.to_owned(),
        message: format!("the {what} contains characters that cannot be sent in a header"),
    })
}
