//! Raw recording of a provider stream to a file.
//!
//! A recording is the response body byte for byte, preceded by `#` comment lines that say where
//! it came from (provider, URL, request headers with credentials redacted) — the same layout as the
//! fixtures in `tests/fixtures/`, whose first line is a `# source:` comment. [`ReplayProvider`]
//! plays such a file back. Known keys are scrubbed from the body too (a server may echo one), so
//! the body differs from what was received only where a key was.
//!
//! [`ReplayProvider`]: super::replay::ReplayProvider

use std::path::{Path, PathBuf};

use reqwest::header::HeaderMap;
use tokio::io::AsyncWriteExt;

use super::error::ProviderError;
use super::redact::dump_headers;
use crate::secrets::{StreamScrubber, scrub};

/// Writes one response body to a file as it streams.
#[derive(Debug)]
pub struct Recorder {
    file: tokio::fs::File,
    path: PathBuf,
    scrubber: StreamScrubber,
}

fn recording_error(path: &Path, err: std::io::Error) -> ProviderError {
    ProviderError::Recording {
        path: path.display().to_string(),
        message: err.to_string(),
    }
}

impl Recorder {
    /// Creates (or truncates) `path` and writes the provenance header.
    pub async fn create(
        path: &Path,
        provider: &str,
        url: &str,
        request_headers: &HeaderMap,
    ) -> Result<Self, ProviderError> {
        let file = tokio::fs::File::create(path)
            .await
            .map_err(|err| recording_error(path, err))?;
        Self::start(file, path, provider, url, request_headers).await
    }

    /// Creates a new file in `dir` (created if missing) named by the order of the recordings in
    /// it and the provider, `0001-anthropic.sse`, `0002-anthropic.sse`…, so the requests of a
    /// whole session are kept side by side, and writes the provenance header.
    pub async fn create_in(
        dir: &Path,
        provider: &str,
        url: &str,
        request_headers: &HeaderMap,
    ) -> Result<Self, ProviderError> {
        tokio::fs::create_dir_all(dir)
            .await
            .map_err(|err| recording_error(dir, err))?;
        let name = provider
            .to_lowercase()
            .replace(|c: char| !c.is_alphanumeric(), "-");
        let mut number = 1;
        loop {
            let path = dir.join(format!("{number:04}-{name}.sse"));
            match tokio::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .await
            {
                Ok(file) => return Self::start(file, &path, provider, url, request_headers).await,
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => number += 1,
                Err(err) => return Err(recording_error(&path, err)),
            }
        }
    }

    async fn start(
        mut file: tokio::fs::File,
        path: &Path,
        provider: &str,
        url: &str,
        request_headers: &HeaderMap,
    ) -> Result<Self, ProviderError> {
        let mut header = format!("# recorded: {provider} POST {url}\n");
        for line in dump_headers(request_headers) {
            header.push_str(&format!("# request-header: {line}\n"));
        }
        file.write_all(scrub(&header).as_bytes())
            .await
            .map_err(|err| recording_error(path, err))?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            scrubber: StreamScrubber::new(),
        })
    }

    /// Appends body bytes, scrubbed of known keys (the end of a piece that may be the start of
    /// one waits for the next piece).
    pub async fn write(&mut self, bytes: &[u8]) -> Result<(), ProviderError> {
        let scrubbed = self.scrubber.push(bytes);
        self.file
            .write_all(&scrubbed)
            .await
            .map_err(|err| recording_error(&self.path, err))
    }

    /// Writes what was held back and flushes the file.
    pub async fn finish(mut self) -> Result<(), ProviderError> {
        let rest = self.scrubber.finish();
        self.file
            .write_all(&rest)
            .await
            .map_err(|err| recording_error(&self.path, err))?;
        self.file
            .flush()
            .await
            .map_err(|err| recording_error(&self.path, err))
    }
}

/// The body of a recording: everything after the leading `#` comment lines.
pub fn recording_body(bytes: &[u8]) -> &[u8] {
    let mut rest = bytes;
    while rest.first() == Some(&b'#') {
        match rest.iter().position(|b| *b == b'\n') {
            Some(newline) => rest = &rest[newline + 1..],
            None => return &[],
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[tokio::test]
    async fn recording_has_a_redacted_header_and_the_raw_body() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stream.sse");
        let mut headers = HeaderMap::new();
        headers.insert("x-api-key", HeaderValue::from_static("sk-ant-secret"));
        headers.insert("anthropic-version", HeaderValue::from_static("2023-06-01"));
        let mut recorder = Recorder::create(&path, "Anthropic", "http://x/v1/messages", &headers)
            .await
            .unwrap();
        recorder.write(b"event: ping\n").await.unwrap();
        recorder.write(b"data: {}\n\n").await.unwrap();
        recorder.finish().await.unwrap();
        let written = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&written);
        assert!(!text.contains("sk-ant-secret"), "{text}");
        assert!(text.contains("# request-header: x-api-key: [REDACTED]"));
        assert_eq!(recording_body(&written), b"event: ping\ndata: {}\n\n");
    }

    #[tokio::test]
    async fn a_key_echoed_in_the_body_is_scrubbed_even_across_chunks() {
        let key = crate::secrets::Secret::new("sk-recorded-body-key-4242");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stream.sse");
        let mut recorder = Recorder::create(&path, "OpenAI", "http://x", &HeaderMap::new())
            .await
            .unwrap();
        let body = format!("data: {{\"echo\": \"{}\"}}\n\n", key.expose());
        let (a, b) = body.split_at(20);
        recorder.write(a.as_bytes()).await.unwrap();
        recorder.write(b.as_bytes()).await.unwrap();
        recorder.finish().await.unwrap();
        let written = std::fs::read(&path).unwrap();
        assert_eq!(
            recording_body(&written),
            b"data: {\"echo\": \"[REDACTED]\"}\n\n"
        );
    }

    #[tokio::test]
    async fn recordings_in_a_directory_are_numbered_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = dir.path().join("recordings");
        for body in [&b"data: 1\n\n"[..], b"data: 2\n\n"] {
            let mut recorder =
                Recorder::create_in(&sessions, "OpenAI", "http://x", &HeaderMap::new())
                    .await
                    .unwrap();
            recorder.write(body).await.unwrap();
            recorder.finish().await.unwrap();
        }
        let read = |name: &str| std::fs::read(sessions.join(name)).unwrap();
        assert_eq!(recording_body(&read("0001-openai.sse")), b"data: 1\n\n");
        assert_eq!(recording_body(&read("0002-openai.sse")), b"data: 2\n\n");
    }

    #[test]
    fn body_skips_only_leading_comments() {
        assert_eq!(recording_body(b"# source: x\ndata: 1\n\n"), b"data: 1\n\n");
        assert_eq!(recording_body(b"data: #1\n"), b"data: #1\n");
        assert_eq!(recording_body(b"# only"), b"");
    }
}
