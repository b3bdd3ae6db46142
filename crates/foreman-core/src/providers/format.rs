//! Which wire format a stream (or a recording of one) is in, and a fresh decoder for it.

use super::anthropic_decoder::AnthropicDecoder;
use super::error::ProviderError;
use super::event::ProviderEvent;
use super::openai_decoder::OpenAiDecoder;
use super::wire::WireDecoder;

/// Which wire format a stream (or a recording of one) is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireFormat {
    /// Anthropic Messages API.
    Anthropic,
    /// OpenAI Chat Completions (and compatible servers).
    OpenAi,
}

impl WireFormat {
    /// A fresh decoder for this format.
    pub fn decoder(self) -> Box<dyn WireDecoder> {
        match self {
            Self::Anthropic => Box::new(AnthropicDecoder::new()),
            Self::OpenAi => Box::new(OpenAiDecoder::new()),
        }
    }

    /// The provider's display name.
    pub fn provider_name(self) -> &'static str {
        match self {
            Self::Anthropic => "Anthropic",
            Self::OpenAi => "OpenAI-compatible server",
        }
    }
}

/// Decodes a whole body given as chunks (replays, fixtures, property tests): the events, and the
/// error the stream ended with, if any.
pub fn decode_chunks<'a>(
    format: WireFormat,
    chunks: impl IntoIterator<Item = &'a [u8]>,
) -> (Vec<ProviderEvent>, Option<ProviderError>) {
    let mut sse = crate::sse::SseDecoder::new();
    let mut decoder = format.decoder();
    let mut events = Vec::new();
    let feed = |sse_events: Vec<crate::sse::SseEvent>,
                decoder: &mut Box<dyn WireDecoder>,
                events: &mut Vec<ProviderEvent>|
     -> Result<(), ProviderError> {
        for event in sse_events {
            if decoder.is_finished() {
                break;
            }
            events.extend(decoder.on_event(event.event.as_deref().unwrap_or(""), &event.data)?);
        }
        Ok(())
    };
    for chunk in chunks {
        if let Err(err) = feed(sse.push(chunk), &mut decoder, &mut events) {
            return (events, Some(err));
        }
    }
    if let Err(err) = feed(sse.finish(), &mut decoder, &mut events) {
        return (events, Some(err));
    }
    if !decoder.is_finished() {
        match decoder.on_end() {
            Ok(closing) => events.extend(closing),
            Err(err) => return (events, Some(err)),
        }
    }
    (events, None)
}
