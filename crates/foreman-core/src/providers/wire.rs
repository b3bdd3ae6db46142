//! The seam between the HTTP driver and a provider's wire format.
//!
//! A [`WireDecoder`] turns the SSE events of one response into [`ProviderEvent`]s. It is pure
//! (no I/O), so the same decoder serves live streams, replays and property tests, and a fresh one
//! is made for every attempt.

use super::error::ProviderError;
use super::event::ProviderEvent;

/// Decodes one provider's SSE events.
pub trait WireDecoder: Send {
    /// Handles one SSE event (`event` is the `event:` field, empty when absent).
    fn on_event(&mut self, event: &str, data: &str) -> Result<Vec<ProviderEvent>, ProviderError>;

    /// The body ended. Returns the closing events, or an error if the answer is incomplete.
    fn on_end(&mut self) -> Result<Vec<ProviderEvent>, ProviderError>;

    /// True once the terminal event (`Stop`) was produced; the driver stops reading then.
    fn is_finished(&self) -> bool;
}
