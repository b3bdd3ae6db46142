//! The [`Provider`] contract: one request in, a stream of events out.

use std::pin::Pin;

use futures_util::Stream;
use tokio_util::sync::CancellationToken;

use super::error::ProviderError;
use super::event::ProviderEvent;
use super::request::ProviderRequest;

/// The events of one request; ends after `Stop` or after the first error.
pub type EventStream = Pin<Box<dyn Stream<Item = Result<ProviderEvent, ProviderError>> + Send>>;

/// A model provider.
///
/// `stream` never blocks and never fails directly: setup errors (a missing key...) arrive as the
/// stream's first item. Cancelling `cancel` stops the request promptly (the HTTP connection is
/// closed) and ends the stream with [`ProviderError::Cancelled`].
pub trait Provider: Send + Sync + std::fmt::Debug {
    /// A display name ("Anthropic").
    fn name(&self) -> &str;

    /// Starts the request. Needs a Tokio runtime.
    fn stream(&self, request: ProviderRequest, cancel: CancellationToken) -> EventStream;
}
