//! Model providers: one trait, one event type.
//!
//! A [`Provider`] turns a [`ProviderRequest`] (system prompt, [`Message`]s, [`ToolDefinition`]s,
//! model, [`Limits`]) into an [`EventStream`] of [`ProviderEvent`]s or a typed [`ProviderError`].
//!
//! - [`anthropic`]: the native Anthropic Messages API.
//! - [`openai`]: OpenAI Chat Completions and compatible servers (Ollama, vLLM, OpenRouter...).
//! - [`text_protocol`]: tool calling for models without native tools, over any provider.
//! - [`replay`]: a provider that replays a [`recording`] of a raw stream.
//!
//! HTTP goes through `reqwest` with streaming bodies decoded by [`crate::sse`]; retries, timeouts
//! and cancellation live in [`http`]. Keys are [`Secret`]s from a [`KeySource`] and never appear in
//! logs, events, errors or Debug output.

use std::pin::Pin;

use futures_util::Stream;
use tokio_util::sync::CancellationToken;

pub mod anthropic;
pub mod anthropic_decoder;
pub mod collect;
pub mod context_windows;
pub mod error;
pub mod event;
pub mod http;
pub mod keyring_key;
pub mod keys;
pub mod message;
pub mod model_names;
pub mod openai;
pub mod openai_decoder;
pub mod preset;
pub mod pricing;
pub mod recording;
pub mod redact;
pub mod replay;
pub mod request;
pub mod retry;
pub mod secret;
pub mod text_extract;
pub mod text_protocol;
pub(crate) mod text_stream;
pub(crate) mod tool_call;
pub mod usage;
pub mod wire;

pub use anthropic::{AnthropicConfig, AnthropicProvider};
pub use collect::{Collected, CollectedCall, collect};
pub use error::ProviderError;
pub use event::{ProviderEvent, RetryNotice, StopReason, ToolArguments, ToolArgumentsError};
pub use http::HttpSettings;
pub use keyring_key::{KEYRING_SERVICE, KeyringError, KeyringKey};
pub use keys::{EnvKey, KeySource, SharedKeySource, StaticKey};
pub use message::{Message, Thinking, ToolCall, ToolResult};
pub use openai::{MaxTokensField, OpenAiConfig, OpenAiProvider};
pub use preset::{ProviderPreset, ProviderSettings, build_provider};
pub use pricing::{ModelPrice, PriceTable};
pub use replay::ReplayProvider;
pub use request::{Limits, ProviderRequest, ToolDefinition};
pub use retry::RetryPolicy;
pub use secret::Secret;
pub use text_protocol::{TextProtocolProvider, ToolCalling, with_tool_calling};
pub use usage::{Usage, UsageAccumulator};
pub use wire::{WireDecoder, WireFormat, decode_chunks};

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
