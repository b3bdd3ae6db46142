//! A provider that replays a recorded stream.
//!
//! It ignores the request and plays a file written by [`Recorder`](super::recording::Recorder)
//! (or any raw SSE body, such as the fixtures, after leading `#` comment lines) through the same
//! decoders as a live stream. Useful for demos, UI work and regression tests without a network.

use std::path::PathBuf;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::error::ProviderError;
use super::format::{WireFormat, decode_chunks};
use super::http::channel_stream;
use super::provider::{EventStream, Provider};
use super::recording::recording_body;
use super::request::ProviderRequest;

/// Replays a recording.
#[derive(Debug, Clone)]
pub struct ReplayProvider {
    path: PathBuf,
    format: WireFormat,
}

impl ReplayProvider {
    pub fn new(path: impl Into<PathBuf>, format: WireFormat) -> Self {
        Self {
            path: path.into(),
            format,
        }
    }
}

impl Provider for ReplayProvider {
    fn name(&self) -> &str {
        "Replay"
    }

    fn stream(&self, _request: ProviderRequest, cancel: CancellationToken) -> EventStream {
        let (tx, rx) = mpsc::channel(64);
        let path = self.path.clone();
        let format = self.format;
        tokio::spawn(async move {
            let bytes = match tokio::fs::read(&path).await {
                Ok(bytes) => bytes,
                Err(err) => {
                    let error = ProviderError::Recording {
                        path: path.display().to_string(),
                        message: err.to_string(),
                    };
                    // The consumer may be gone; nothing else to do.
                    let _ = tx.send(Err(error)).await;
                    return;
                }
            };
            let (events, error) = decode_chunks(format, [recording_body(&bytes)]);
            let items = events.into_iter().map(Ok).chain(error.map(Err));
            for item in items {
                tokio::select! {
                    biased;
                    () = cancel.cancelled() => {
                        let _ = tx.try_send(Err(ProviderError::Cancelled));
                        return;
                    }
                    sent = tx.send(item) => if sent.is_err() { return },
                }
            }
        });
        channel_stream(rx)
    }
}
