//! The streaming HTTP driver shared by the native providers.
//!
//! One spawned task per request: it POSTs the body, checks the status, reads the body as it
//! streams, decodes it with [`SseDecoder`] and the provider's [`WireDecoder`], and sends events to
//! the returned [`EventStream`]. It owns the failure policy:
//!
//! - retryable failures (see [`retry`](super::retry)) before any output was yielded are retried
//!   with backoff, each retry announced as [`ProviderEvent::Retrying`];
//! - a stream that drops after output started ends with [`ProviderError::StreamInterrupted`];
//!   events already yielded stay yielded;
//! - connect timeout (reqwest) and idle timeout (no byte for `idle_timeout`, also while waiting for
//!   the response head);
//! - cancellation: the task watches the [`CancellationToken`] at every await and drops the
//!   response at once, which closes the connection.

use std::path::PathBuf;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::header::HeaderMap;
use reqwest::{Client, StatusCode};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::error::{CONTEXT_LENGTH_EXCEEDED, ProviderError, is_context_length_message};
use super::event::{ProviderEvent, RetryNotice};
use super::format::WireFormat;
use super::keys::SharedKeySource;
use super::provider::EventStream;
use super::recording::Recorder;
use super::redact::{dump_headers, scrub};
use super::retry::{RetryPolicy, is_retryable_status, retry_after};
use super::wire::WireDecoder;
use crate::secrets::Secret;
use crate::sse::SseDecoder;

/// Network settings of a provider.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpSettings {
    /// Limit for establishing the TCP/TLS connection.
    pub connect_timeout: Duration,
    /// Limit for a silence: no byte of the response (head or body) for this long.
    pub idle_timeout: Duration,
    pub retry: RetryPolicy,
    /// When set, a directory: every response body is recorded raw to a new file in it, named
    /// by its order and the provider (`0001-anthropic.sse`; see [`Recorder::create_in`]), for a
    /// bug report or a [`ReplayProvider`](super::ReplayProvider).
    pub record_to: Option<PathBuf>,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(u64::from(
                foreman_protocol::settings::DEFAULT_CONNECT_TIMEOUT_SECS,
            )),
            idle_timeout: Duration::from_secs(u64::from(
                foreman_protocol::settings::DEFAULT_IDLE_TIMEOUT_SECS,
            )),
            retry: RetryPolicy::default(),
            record_to: None,
        }
    }
}

/// Builds the shared HTTP client.
pub(crate) fn build_client(
    settings: &HttpSettings,
    provider: &str,
) -> Result<Client, ProviderError> {
    crate::tls::client_builder()
        .connect_timeout(settings.connect_timeout)
        .build()
        .map_err(|err| ProviderError::Config {
            provider: provider.to_string(),
            message: format!("cannot set up HTTP: {err}"),
        })
}

/// One streaming request, ready to send.
pub(crate) struct StreamRequest {
    pub provider: &'static str,
    pub url: String,
    /// Includes the credential header(s); dumped only through [`dump_headers`].
    pub headers: HeaderMap,
    pub body: Vec<u8>,
    /// The key, to scrub it from anything the server echoes.
    pub secret: Option<Secret>,
    /// Where the key came from, for the error that says it was rejected.
    pub key_source: SharedKeySource,
    pub format: WireFormat,
}

impl std::fmt::Debug for StreamRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamRequest")
            .field("provider", &self.provider)
            .field("url", &self.url)
            .field("headers", &dump_headers(&self.headers))
            .field("body_bytes", &self.body.len())
            .field("format", &self.format)
            .finish()
    }
}

/// A stream over a channel fed by a task.
pub(crate) fn channel_stream(
    rx: mpsc::Receiver<Result<ProviderEvent, ProviderError>>,
) -> EventStream {
    Box::pin(futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    }))
}

/// A stream that yields one error.
pub(crate) fn error_stream(error: ProviderError) -> EventStream {
    Box::pin(futures_util::stream::once(async move { Err(error) }))
}

/// Starts the request on a task and returns its events.
pub(crate) fn spawn_stream(
    client: Client,
    settings: HttpSettings,
    request: StreamRequest,
    cancel: CancellationToken,
) -> EventStream {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(drive(client, settings, request, Sink { tx, cancel }));
    channel_stream(rx)
}

struct Sink {
    tx: mpsc::Sender<Result<ProviderEvent, ProviderError>>,
    cancel: CancellationToken,
}

impl Sink {
    /// Sends an item; false when the consumer is gone or the request was cancelled.
    async fn send(&self, item: Result<ProviderEvent, ProviderError>) -> bool {
        tokio::select! {
            biased;
            () = self.cancel.cancelled() => false,
            sent = self.tx.send(item) => sent.is_ok(),
        }
    }

    fn cancelled(&self) {
        // The consumer may have stopped listening; nothing else to tell.
        let _ = self.tx.try_send(Err(ProviderError::Cancelled));
    }
}

/// An attempt's failure.
struct Failure {
    error: ProviderError,
    retry_after: Option<Duration>,
    /// A short reason for the retry notice.
    reason: String,
}

impl From<ProviderError> for Failure {
    fn from(error: ProviderError) -> Self {
        let reason = match &error {
            ProviderError::Api { kind, .. } => kind.clone(),
            other => other.to_string(),
        };
        Self {
            error,
            retry_after: None,
            reason,
        }
    }
}

async fn drive(client: Client, settings: HttpSettings, request: StreamRequest, sink: Sink) {
    let max_attempts = settings.retry.max_attempts.max(1);
    let mut emitted = false;
    let mut attempt = 1;
    loop {
        let failure =
            match attempt_once(&client, &settings, &request, &sink, attempt, &mut emitted).await {
                Ok(()) => return,
                Err(failure) => failure,
            };
        if sink.cancel.is_cancelled() || failure.error == ProviderError::Cancelled {
            sink.cancelled();
            return;
        }
        if emitted || !failure.error.is_retryable() || attempt >= max_attempts {
            sink.send(Err(failure.error)).await;
            return;
        }
        let delay = settings
            .retry
            .delay_before(attempt + 1, failure.retry_after);
        let notice = RetryNotice {
            attempt: attempt + 1,
            max_attempts,
            delay,
            reason: failure.reason,
        };
        tracing::info!(provider = request.provider, "{}", notice.message());
        if !sink.send(Ok(ProviderEvent::Retrying(notice))).await {
            sink.cancelled();
            return;
        }
        tokio::select! {
            biased;
            () = sink.cancel.cancelled() => {
                sink.cancelled();
                return;
            }
            () = tokio::time::sleep(delay) => {}
        }
        attempt += 1;
    }
}

/// The error text of a reqwest error with its causes ("error sending request: connection refused").
fn describe(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn send_error(
    request: &StreamRequest,
    settings: &HttpSettings,
    err: &reqwest::Error,
    attempt: u32,
) -> Failure {
    let error = if err.is_connect() && err.is_timeout() {
        ProviderError::ConnectTimeout {
            provider: request.provider.to_string(),
            timeout: settings.connect_timeout,
        }
    } else {
        ProviderError::Connect {
            provider: request.provider.to_string(),
            attempts: attempt,
            message: scrub(&describe(err), request.secret.as_ref()),
        }
    };
    let reason = if err.is_connect() {
        "cannot connect".to_string()
    } else {
        "connection closed before the answer began".to_string()
    };
    Failure {
        error,
        retry_after: None,
        reason,
    }
}

/// Whether a JSON error body says, by its code or type rather than its message, that the prompt
/// is too long for the context window (Groq's and OpenAI's `"code": "context_length_exceeded"`
/// comes with messages such as "Please reduce the length of the messages or completion.").
fn error_code_is_context_length(body: &str) -> bool {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(body) else {
        return false;
    };
    ["/error/code", "/error/type", "/code", "/type"]
        .iter()
        .filter_map(|pointer| json.pointer(pointer).and_then(serde_json::Value::as_str))
        .any(|code| code == CONTEXT_LENGTH_EXCEEDED)
}

/// An error that arrived inside the stream (an SSE `error` event, an OpenAI error chunk, data
/// that does not parse), with the key taken out of what the server sent (it may echo it) and a
/// prompt too long for the model made its own kind, as a status error would be.
fn in_stream(error: ProviderError, secret: Option<&Secret>) -> ProviderError {
    match error {
        ProviderError::Api {
            provider,
            kind,
            message,
        } => {
            let message = scrub(&message, secret);
            if kind == CONTEXT_LENGTH_EXCEEDED || is_context_length_message(&message) {
                ProviderError::ContextLength { message }
            } else {
                ProviderError::Api {
                    provider,
                    kind: scrub(&kind, secret),
                    message,
                }
            }
        }
        ProviderError::Protocol { provider, message } => ProviderError::Protocol {
            provider,
            message: scrub(&message, secret),
        },
        other => other,
    }
}

/// The `error.message` of a JSON error body, else the body itself (shortened).
pub(crate) fn error_message(body: &str) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|json| {
        json.pointer("/error/message")
            .or_else(|| json.get("message"))
            .or_else(|| json.get("error"))
            .and_then(serde_json::Value::as_str)
    });
    match message {
        Some(message) => message.to_string(),
        None if body.trim().is_empty() => "no details".to_string(),
        None => body.chars().take(500).collect(),
    }
}

fn status_error(
    request: &StreamRequest,
    status: StatusCode,
    headers: &HeaderMap,
    body: &str,
    attempt: u32,
) -> Failure {
    let message = error_message(&scrub(body, request.secret.as_ref()));
    let provider = request.provider.to_string();
    let code = status.as_u16();
    let reason = format!(
        "HTTP {code} {}",
        status
            .canonical_reason()
            .unwrap_or(if code == 529 { "Overloaded" } else { "" })
    )
    .trim_end()
    .to_string();
    let error = match code {
        401 | 403 => ProviderError::Auth {
            provider,
            status: code,
            message,
            hint: request.key_source.describe(),
            key_can_change: request.key_source.can_change(),
        },
        _ if is_retryable_status(status) => ProviderError::Unavailable {
            provider,
            status: code,
            attempts: attempt,
            message,
        },
        _ if is_context_length_message(&message) || error_code_is_context_length(body) => {
            ProviderError::ContextLength { message }
        }
        _ => ProviderError::InvalidRequest {
            provider,
            status: code,
            message,
        },
    };
    Failure {
        error,
        retry_after: retry_after(headers),
        reason,
    }
}

/// Waits for `future` unless cancelled, abandoned by the consumer, or silent for the idle timeout.
async fn guarded<F: std::future::Future>(
    sink: &Sink,
    request: &StreamRequest,
    settings: &HttpSettings,
    future: F,
) -> Result<F::Output, Failure> {
    tokio::select! {
        biased;
        () = sink.cancel.cancelled() => Err(ProviderError::Cancelled.into()),
        // The consumer dropped the stream: stop as if cancelled.
        () = sink.tx.closed() => Err(ProviderError::Cancelled.into()),
        result = tokio::time::timeout(settings.idle_timeout, future) => result.map_err(|_| {
            ProviderError::IdleTimeout {
                provider: request.provider.to_string(),
                timeout: settings.idle_timeout,
            }
            .into()
        }),
    }
}

/// Feeds SSE events to the wire decoder and the decoded events to the consumer.
async fn deliver(
    events: Vec<crate::sse::SseEvent>,
    wire: &mut Box<dyn WireDecoder>,
    request: &StreamRequest,
    sink: &Sink,
    emitted: &mut bool,
) -> Result<(), Failure> {
    for event in events {
        let decoded = wire
            .on_event(event.event.as_deref().unwrap_or(""), &event.data)
            .map_err(|error| in_stream(error, request.secret.as_ref()))?;
        for item in decoded {
            *emitted = true;
            if !sink.send(Ok(item)).await {
                return Err(ProviderError::Cancelled.into());
            }
        }
        if wire.is_finished() {
            break;
        }
    }
    Ok(())
}

async fn attempt_once(
    client: &Client,
    settings: &HttpSettings,
    request: &StreamRequest,
    sink: &Sink,
    attempt: u32,
    emitted: &mut bool,
) -> Result<(), Failure> {
    tracing::debug!(
        provider = request.provider,
        url = %request.url,
        headers = ?dump_headers(&request.headers),
        attempt,
        "provider request"
    );
    let send = client
        .post(&request.url)
        .headers(request.headers.clone())
        .body(request.body.clone())
        .send();
    let response = guarded(sink, request, settings, send)
        .await?
        .map_err(|err| send_error(request, settings, &err, attempt))?;
    let status = response.status();
    if !status.is_success() {
        let headers = response.headers().clone();
        let body = guarded(sink, request, settings, response.text())
            .await?
            .unwrap_or_default();
        return Err(status_error(request, status, &headers, &body, attempt));
    }
    let mut recorder = match &settings.record_to {
        Some(path) => {
            Some(Recorder::create_in(path, request.provider, &request.url, &request.headers).await?)
        }
        None => None,
    };
    let mut sse = SseDecoder::new();
    let mut wire = request.format.decoder();
    let mut body = response.bytes_stream();
    loop {
        let chunk = match guarded(sink, request, settings, body.next()).await? {
            None => break,
            Some(Ok(chunk)) => chunk,
            Some(Err(err)) => {
                let message = scrub(&describe(&err), request.secret.as_ref());
                let error = if *emitted {
                    ProviderError::StreamInterrupted {
                        provider: request.provider.to_string(),
                        message,
                    }
                } else {
                    ProviderError::Connect {
                        provider: request.provider.to_string(),
                        attempts: attempt,
                        message,
                    }
                };
                return Err(Failure {
                    error,
                    retry_after: None,
                    reason: "connection dropped before the answer began".to_string(),
                });
            }
        };
        if let Some(recorder) = recorder.as_mut() {
            recorder.write(&chunk).await?;
        }
        deliver(sse.push(&chunk), &mut wire, request, sink, emitted).await?;
        if wire.is_finished() {
            break;
        }
    }
    if let Some(recorder) = recorder {
        recorder.finish().await?;
    }
    if !wire.is_finished() {
        // An event the body ended in the middle of: its data was cut off, not malformed, and the
        // wire decoder says below that the stream ended early.
        match deliver(sse.finish(), &mut wire, request, sink, emitted).await {
            Err(Failure {
                error: ProviderError::Protocol { .. },
                ..
            }) => {}
            other => other?,
        }
    }
    if !wire.is_finished() {
        match wire.on_end() {
            Ok(events) => {
                for item in events {
                    if !sink.send(Ok(item)).await {
                        return Err(ProviderError::Cancelled.into());
                    }
                }
            }
            Err(error) if !*emitted => {
                // Nothing reached the consumer: as good as a reset before the first byte.
                return Err(Failure {
                    error: ProviderError::Connect {
                        provider: request.provider.to_string(),
                        attempts: attempt,
                        message: error.to_string(),
                    },
                    retry_after: None,
                    reason: "the answer ended before it began".to_string(),
                });
            }
            Err(error) => return Err(error.into()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_debug_redacts_credentials() {
        let mut headers = HeaderMap::new();
        let mut value = reqwest::header::HeaderValue::from_static("Bearer sk-dump-me-not");
        value.set_sensitive(true);
        headers.insert(reqwest::header::AUTHORIZATION, value);
        let request = StreamRequest {
            provider: "Test",
            url: "http://127.0.0.1:1/v1/chat/completions".into(),
            headers,
            body: b"{}".to_vec(),
            secret: Some(Secret::new("sk-dump-me-not")),
            key_source: crate::providers::keys::no_key(),
            format: WireFormat::OpenAi,
        };
        let dump = format!("{request:?}");
        assert!(!dump.contains("sk-dump-me-not"), "{dump}");
        assert!(dump.contains("authorization: [REDACTED]"));
    }

    #[test]
    fn status_errors_are_classified_and_scrubbed() {
        let request = StreamRequest {
            provider: "Test",
            url: String::new(),
            headers: HeaderMap::new(),
            body: Vec::new(),
            secret: Some(Secret::new("sk-echoed")),
            key_source: crate::providers::keys::no_key(),
            format: WireFormat::Anthropic,
        };
        let mut headers = HeaderMap::new();
        headers.insert(
            "retry-after",
            reqwest::header::HeaderValue::from_static("3"),
        );
        let failure = status_error(
            &request,
            StatusCode::TOO_MANY_REQUESTS,
            &headers,
            r#"{"error":{"message":"slow down sk-echoed"}}"#,
            2,
        );
        assert_eq!(failure.retry_after, Some(Duration::from_secs(3)));
        assert_eq!(failure.reason, "HTTP 429 Too Many Requests");
        assert_eq!(
            failure.error,
            ProviderError::Unavailable {
                provider: "Test".into(),
                status: 429,
                attempts: 2,
                message: "slow down [REDACTED]".into(),
            }
        );
        let overloaded = status_error(
            &request,
            StatusCode::from_u16(529).unwrap(),
            &HeaderMap::new(),
            "",
            1,
        );
        assert_eq!(overloaded.reason, "HTTP 529 Overloaded");
        assert!(overloaded.error.is_retryable());
    }

    #[test]
    fn error_bodies_are_reduced_to_their_message() {
        assert_eq!(
            error_message(
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
            ),
            "Overloaded"
        );
        assert_eq!(
            error_message(r#"{"error":"model not found"}"#),
            "model not found"
        );
        assert_eq!(error_message(""), "no details");
        assert_eq!(error_message("Bad Gateway"), "Bad Gateway");
    }
}
