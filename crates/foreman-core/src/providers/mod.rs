//! Model providers: one trait, one event type.
//!
//! A [`Provider`] turns a [`ProviderRequest`] (system prompt, [`Message`]s, [`ToolDefinition`]s,
//! model, [`Limits`]) into an [`EventStream`] of [`ProviderEvent`]s or a typed [`ProviderError`].
//!
//! - [`anthropic`]: the native Anthropic Messages API.
//! - [`openai`]: OpenAI Chat Completions and compatible servers (Ollama, vLLM, OpenRouter...).
//! - [`text_protocol`]: tool calling for models without native tools, over any provider.
//! - [`replay`]: a provider that replays a [`recording`] of a raw stream.
//! - [`models`]: which models a provider offers.
//!
//! HTTP goes through `reqwest` with streaming bodies decoded by [`crate::sse`]; retries, timeouts
//! and cancellation live in [`http`]. Keys are [`Secret`](crate::secrets::Secret)s from a [`KeySource`] and never appear in
//! logs, events, errors or Debug output.

pub mod anthropic;
pub mod anthropic_decoder;
pub mod api;
pub mod attachment;
pub mod collect;
pub mod connection_test;
pub mod context_windows;
pub mod error;
pub mod event;
pub mod format;
pub mod http;
pub mod http_provider;
pub mod keyring_key;
pub mod keys;
pub mod message;
pub mod model_names;
pub mod models;
pub mod openai;
pub mod openai_decoder;
pub mod preset;
pub mod pricing;
pub mod provider;
pub mod recording;
pub mod redact;
pub mod replay;
pub mod request;
pub mod retry;
pub mod text_extract;
pub mod text_protocol;
pub(crate) mod text_stream;
pub(crate) mod tool_call;
pub mod usage;
pub mod wire;

pub use anthropic::{AnthropicConfig, AnthropicProvider};
pub use attachment::Attachment;
pub use collect::{Collected, CollectedCall, collect};
pub use connection_test::{ConnectionTest, TEST_TIMEOUT, ToolSupport, test_connection};
pub use error::ProviderError;
pub use event::{ProviderEvent, RetryNotice, StopReason, ToolArguments, ToolArgumentsError};
pub use format::{WireFormat, decode_chunks};
pub use http::HttpSettings;
pub use http_provider::HttpProvider;
pub use keyring_key::{KEYRING_SERVICE, KeyringError, KeyringKey};
pub use keys::{EnvKey, KeySource, SharedKeySource, StaticKey};
pub use message::{Message, Thinking, ToolCall, ToolResult};
pub use models::{LIST_TIMEOUT, ModelInfo, ModelListError, list_models};
pub use openai::{MaxTokensField, OpenAiConfig, OpenAiProvider};
pub use preset::{ProviderPreset, ProviderSettings, build_provider, limits_for};
pub use pricing::{ModelPrice, PriceTable};
pub use provider::{EventStream, Provider};
pub use replay::ReplayProvider;
pub use request::{Limits, ProviderRequest, ReasoningEffort, ToolDefinition};
pub use retry::RetryPolicy;
pub use text_protocol::{TextProtocolProvider, ToolCalling, with_tool_calling};
pub use usage::{Usage, UsageAccumulator};
pub use wire::WireDecoder;
