//! The `http_fetch` tool: one HTTP(S) request with a timeout and a response size cap. HTML is
//! converted to readable text, binary bodies are summarised rather than dumped, and requests to
//! loopback/private addresses are flagged (see [`super::private_target`]) for the approval
//! request. Redirects are checked hop by hop (see [`super::redirect`]): one that leaves for a
//! private address or a non-web scheme is refused with an error naming its target.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::{Method, Url};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use super::error::BuiltinError;
use super::file_kind::detect_binary;
use super::redirect::{
    CREDENTIAL_HEADERS, MAX_REDIRECTS, check_redirect, method_after, same_origin,
};
use std::sync::Arc;

use serde_json::Value;

use super::listed::Builtin;
use super::session::BuiltinSession;
pub use crate::approval::network::is_private_target;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::ToolKind;
use crate::tools::{CallContext, Tool, ToolError, ToolOutput, arg};

/// Default request timeout.
pub const DEFAULT_FETCH_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest response body read (the rest is left out).
pub const MAX_RESPONSE_BYTES: usize = 5 * 1024 * 1024;
/// Largest text given to the model.
pub const MAX_FETCH_TEXT_BYTES: usize = 100 * 1024;

/// Make an HTTP or HTTPS request (GET by default) and return the response; HTML is converted to
/// readable text, binary bodies are only summarised, large bodies are cut. A request to this
/// computer or a private network always asks the user first.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct HttpFetchParams {
    /// The http:// or https:// URL to request.
    pub url: String,
    /// HTTP method: GET (default), POST, PUT, PATCH, DELETE or HEAD.
    #[serde(default)]
    pub method: Option<String>,
    /// Extra request headers, name to value.
    #[serde(default)]
    pub headers: Option<BTreeMap<String, String>>,
    /// Request body (for POST, PUT, PATCH).
    #[serde(default)]
    pub body: Option<String>,
}

/// Limits applied to one fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchLimits {
    /// Whole-request timeout.
    pub timeout: Duration,
    /// Most body bytes read.
    pub max_body_bytes: usize,
}

impl Default for FetchLimits {
    fn default() -> Self {
        Self {
            timeout: DEFAULT_FETCH_TIMEOUT,
            max_body_bytes: MAX_RESPONSE_BYTES,
        }
    }
}

/// Result of the `http_fetch` tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HttpFetchOutput {
    /// Short title, e.g. `GET https://example.com → 200 (text/html, 1,256 bytes)`.
    pub title: String,
    /// Final URL (after redirects).
    pub url: String,
    /// HTTP status code.
    pub status: u16,
    /// Content type reported by the server.
    pub content_type: Option<String>,
    /// Body bytes received (up to the cap).
    pub body_bytes: usize,
    /// Whether the body was cut at the size cap or the text cap.
    pub truncated: bool,
    /// Whether the body is binary (only summarised).
    pub binary: bool,
    /// Whether the HTML was converted to text.
    pub converted_from_html: bool,
    /// The body as text (converted, summarised or truncated).
    pub text: String,
    /// Wall time in milliseconds.
    pub duration_ms: u64,
}

impl HttpFetchOutput {
    /// Text given to the model.
    pub fn render(&self) -> String {
        let mut out = format!(
            "HTTP {} from {} ({}, {} bytes)\n\n",
            self.status,
            self.url,
            self.content_type.as_deref().unwrap_or("no content type"),
            self.body_bytes
        );
        out.push_str(&self.text);
        if self.truncated {
            out.push_str("\n[response truncated]");
        }
        out
    }
}

/// The progress tip shown while the tool runs.
pub fn http_fetch_tip(params: &HttpFetchParams) -> String {
    format!("Fetching {}…", params.url)
}

/// Parses and checks the URL (http/https only).
pub fn parse_fetch_url(raw: &str) -> Result<Url, BuiltinError> {
    let url =
        Url::parse(raw).map_err(|e| BuiltinError::InvalidParams(format!("url `{raw}`: {e}")))?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(BuiltinError::InvalidParams(format!(
            "url scheme `{other}` is not allowed; only http and https are"
        ))),
    }
}

/// Runs the `http_fetch` tool with the default limits.
pub async fn run_http_fetch(
    params: HttpFetchParams,
    cancel: CancellationToken,
) -> Result<HttpFetchOutput, BuiltinError> {
    fetch_with_limits(params, FetchLimits::default(), cancel).await
}

/// Runs the `http_fetch` tool with explicit limits.
pub async fn fetch_with_limits(
    params: HttpFetchParams,
    limits: FetchLimits,
    cancel: CancellationToken,
) -> Result<HttpFetchOutput, BuiltinError> {
    tokio::select! {
        result = fetch(params, limits) => result,
        () = cancel.cancelled() => Err(BuiltinError::Cancelled),
    }
}

async fn fetch(
    params: HttpFetchParams,
    limits: FetchLimits,
) -> Result<HttpFetchOutput, BuiltinError> {
    let url = parse_fetch_url(&params.url)?;
    let method_name = params
        .method
        .as_deref()
        .unwrap_or("GET")
        .to_ascii_uppercase();
    let method = match method_name.as_str() {
        "GET" => Method::GET,
        "POST" => Method::POST,
        "PUT" => Method::PUT,
        "PATCH" => Method::PATCH,
        "DELETE" => Method::DELETE,
        "HEAD" => Method::HEAD,
        other => {
            return Err(BuiltinError::InvalidParams(format!(
                "method `{other}` is not supported"
            )));
        }
    };
    // Redirects are followed by hand, so each target is checked like the approved URL was.
    let client = crate::tls::client_builder()
        .timeout(limits.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("Foreman/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| BuiltinError::Http(e.to_string()))?;
    let started = Instant::now();
    let response = follow_redirects(
        &client,
        url,
        method,
        params.headers.unwrap_or_default(),
        params.body,
    )
    .await?;
    let status = response.status().as_u16();
    let final_url = response.url().to_string();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let mut body = Vec::new();
    let mut truncated = false;
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| BuiltinError::Http(describe(&e)))?;
        let room = limits.max_body_bytes - body.len();
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            truncated = true;
            break;
        }
        body.extend_from_slice(&chunk);
    }
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let (text, binary, converted_from_html, text_truncated) =
        body_text(&body, content_type.as_deref());
    let title = format!(
        "{method_name} {final_url} → {status} ({}, {} bytes)",
        content_type.as_deref().unwrap_or("no content type"),
        body.len()
    );
    Ok(HttpFetchOutput {
        title,
        url: final_url,
        status,
        content_type,
        body_bytes: body.len(),
        truncated: truncated || text_truncated,
        binary,
        converted_from_html,
        text,
        duration_ms,
    })
}

/// Sends the request and follows up to [`MAX_REDIRECTS`] redirects, each checked with
/// [`check_redirect`] against the approved `url`; returns the first response that is not a
/// redirect.
async fn follow_redirects(
    client: &reqwest::Client,
    url: Url,
    mut method: Method,
    mut headers: BTreeMap<String, String>,
    mut body: Option<String>,
) -> Result<reqwest::Response, BuiltinError> {
    let mut current = url.clone();
    let mut redirects = 0;
    loop {
        let mut request = client.request(method.clone(), current.clone());
        for (name, value) in &headers {
            request = request.header(name, value);
        }
        if let Some(body) = &body {
            request = request.body(body.clone());
        }
        let response = request
            .send()
            .await
            .map_err(|e| BuiltinError::Http(describe(&e)))?;
        let status = response.status();
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok());
        let (true, Some(location)) = (is_followed_redirect(status), location) else {
            return Ok(response);
        };
        let target = current.join(location).map_err(|e| {
            BuiltinError::Http(format!(
                "{current} redirected to an invalid location `{location}`: {e}"
            ))
        })?;
        let web = matches!(target.scheme(), "http" | "https");
        let private = web && is_private_target(&target).await;
        check_redirect(&url, &target, private).map_err(|reason| BuiltinError::RedirectRefused {
            from: current.to_string(),
            to: target.to_string(),
            reason: reason.to_string(),
        })?;
        redirects += 1;
        if redirects > MAX_REDIRECTS {
            return Err(BuiltinError::Http(format!(
                "more than {MAX_REDIRECTS} redirects; the last one from {current} pointed at {target}"
            )));
        }
        let (next, keep_body) = method_after(status, &method);
        method = next;
        if !keep_body {
            body = None;
        }
        if !same_origin(&current, &target) {
            headers.retain(|name, _| {
                !CREDENTIAL_HEADERS.contains(&name.to_ascii_lowercase().as_str())
            });
        }
        current = target;
    }
}

/// The redirect statuses that are followed (300 and 304 are answers, not redirects).
fn is_followed_redirect(status: reqwest::StatusCode) -> bool {
    matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308)
}

fn describe(err: &reqwest::Error) -> String {
    if err.is_timeout() {
        format!("the request timed out: {err}")
    } else if err.is_connect() {
        format!("could not connect: {err}")
    } else {
        err.to_string()
    }
}

/// Turns a body into text for the model: (text, binary, converted_from_html, truncated).
fn body_text(body: &[u8], content_type: Option<&str>) -> (String, bool, bool, bool) {
    let mime = content_type
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let textual_mime = mime.starts_with("text/")
        || mime.ends_with("json")
        || mime.ends_with("xml")
        || mime.ends_with("javascript")
        || mime.is_empty();
    if let Some(kind) =
        detect_binary(body).filter(|_| !mime.starts_with("text/") || body.contains(&0))
    {
        let summary = format!(
            "[binary body: {} bytes, {kind}, content type {}]",
            body.len(),
            if mime.is_empty() { "unknown" } else { &mime }
        );
        return (summary, true, false, false);
    }
    if !textual_mime {
        let summary = format!("[binary body: {} bytes of {mime}; not shown]", body.len());
        return (summary, true, false, false);
    }
    let looks_html = mime == "text/html"
        || mime == "application/xhtml+xml"
        || (mime.is_empty()
            && body
                .trim_ascii_start()
                .get(..15)
                .is_some_and(|h| h.eq_ignore_ascii_case(b"<!doctype html>")));
    let (mut text, converted) = if looks_html {
        match html2text::from_read(body, 100) {
            Ok(text) => (text, true),
            Err(_) => (String::from_utf8_lossy(body).into_owned(), false),
        }
    } else {
        (String::from_utf8_lossy(body).into_owned(), false)
    };
    let mut truncated = false;
    if text.len() > MAX_FETCH_TEXT_BYTES {
        let mut cut = MAX_FETCH_TEXT_BYTES;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        truncated = true;
    }
    (text, false, converted, truncated)
}

/// `http_fetch`, for the runtime.
#[derive(Debug, Clone, Default)]
pub struct HttpFetchTool;

impl Builtin for HttpFetchTool {
    const CLAUDE_NAME: Option<&'static str> = Some("WebFetch");

    fn for_session(_session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self)
    }
}

impl Tool for HttpFetchTool {
    type Input = HttpFetchParams;
    const NAME: &'static str = "http_fetch";
    const KIND: ToolKind = ToolKind::Fetch;

    fn title(&self, args: &Value) -> String {
        match (arg(args, "method"), arg(args, "url")) {
            (Some(method), Some(url)) if !method.eq_ignore_ascii_case("GET") => {
                format!("{} {url}", method.to_ascii_uppercase())
            }
            (_, url) => url.unwrap_or_default().to_owned(),
        }
    }

    /// The host; whether it is private is found out by the scheduler (a name is resolved).
    fn facts(&self, input: &HttpFetchParams) -> Result<CallFacts, ToolError> {
        let url = parse_fetch_url(&input.url)?;
        Ok(CallFacts {
            host: url.host_str().map(str::to_owned),
            ..CallFacts::new(Self::NAME, ActionClass::Fetch)
        })
    }

    async fn run(
        self: Arc<Self>,
        input: HttpFetchParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(http_fetch_tip(&input));
        let output = run_http_fetch(input, ctx.cancel).await?;
        Ok(ToolOutput::text(output.render()).summarised(output.title))
    }
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// A tiny HTTP/1.1 server on 127.0.0.1 answering a fixed set of paths, for the tests only.
    async fn serve() -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let port = addr.port();
        tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 4096];
                    let header_end = loop {
                        let n = sock.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            break pos + 4;
                        }
                    };
                    let head = String::from_utf8_lossy(&buf[..header_end]).to_string();
                    let length: usize = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse().unwrap_or(0))
                        })
                        .unwrap_or(0);
                    while buf.len() < header_end + length {
                        let n = sock.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            break;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                    }
                    let body_in = String::from_utf8_lossy(&buf[header_end..]).to_string();
                    let mut parts = head.split_whitespace();
                    let method = parts.next().unwrap_or("").to_string();
                    let path = parts.next().unwrap_or("").to_string();
                    let header_x = head
                        .lines()
                        .find_map(|l| l.strip_prefix("x-test: "))
                        .unwrap_or("")
                        .to_string();
                    let redirect = match path.as_str() {
                        "/to-file" => Some(("302 Found", "file:///etc/passwd".to_string())),
                        // Loopback again, but another origin than the approved 127.0.0.1:port.
                        "/to-localhost" => {
                            Some(("302 Found", format!("http://localhost:{port}/json")))
                        }
                        "/moved" => Some(("301 Moved Permanently", "/json".to_string())),
                        "/post-303" => Some(("303 See Other", "/echo".to_string())),
                        "/post-307" => Some(("307 Temporary Redirect", "/echo".to_string())),
                        "/loop" => Some(("302 Found", "/loop".to_string())),
                        _ => None,
                    };
                    if let Some((status, location)) = redirect {
                        let response = format!(
                            "HTTP/1.1 {status}\r\nlocation: {location}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                        );
                        let _ = sock.write_all(response.as_bytes()).await;
                        let _ = sock.shutdown().await;
                        return;
                    }
                    let (ctype, body): (&str, Vec<u8>) = match path.as_str() {
                        "/html" => ("text/html; charset=utf-8", b"<html><head><title>T</title><script>var x=1;</script></head><body><h1>Hello</h1><p>A <a href=\"/next\">link</a> here.</p><ul><li>one</li><li>two</li></ul></body></html>".to_vec()),
                        "/json" => ("application/json", br#"{"ok":true}"#.to_vec()),
                        "/png" => ("image/png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec()),
                        "/big" => ("text/plain", vec![b'a'; 300_000]),
                        "/echo" => ("text/plain", format!("{method} {header_x} {body_in}").into_bytes()),
                        "/slow" => {
                            tokio::time::sleep(Duration::from_secs(5)).await;
                            ("text/plain", b"late".to_vec())
                        }
                        _ => ("text/plain", b"not found".to_vec()),
                    };
                    let status = if path == "/missing" {
                        "404 Not Found"
                    } else {
                        "200 OK"
                    };
                    let response = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: {ctype}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = sock.write_all(response.as_bytes()).await;
                    let _ = sock.write_all(&body).await;
                    let _ = sock.shutdown().await;
                });
            }
        });
        addr
    }

    fn fp(addr: SocketAddr, path: &str) -> HttpFetchParams {
        HttpFetchParams {
            url: format!("http://{addr}{path}"),
            method: None,
            headers: None,
            body: None,
        }
    }

    #[tokio::test]
    async fn html_is_converted_to_text() {
        let addr = serve().await;
        let out = run_http_fetch(fp(addr, "/html"), CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(out.status, 200);
        assert!(out.converted_from_html);
        assert!(out.text.contains("Hello"), "{}", out.text);
        assert!(out.text.contains("link"), "{}", out.text);
        assert!(!out.text.contains("<h1>"), "{}", out.text);
        assert!(!out.text.contains("var x"), "{}", out.text);
        assert!(out.title.starts_with("GET http://127.0.0.1:"));
        assert!(is_private_target(&Url::parse(&out.url).unwrap()).await);
    }

    #[tokio::test]
    async fn json_binary_and_status() {
        let addr = serve().await;
        let json = run_http_fetch(fp(addr, "/json"), CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(json.text, r#"{"ok":true}"#);
        let png = run_http_fetch(fp(addr, "/png"), CancellationToken::new())
            .await
            .unwrap();
        assert!(png.binary);
        assert!(
            png.text.contains("PNG image") && png.text.contains("16 bytes"),
            "{}",
            png.text
        );
        let missing = run_http_fetch(fp(addr, "/missing"), CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(missing.status, 404);
    }

    #[tokio::test]
    async fn method_headers_and_body_are_sent() {
        let addr = serve().await;
        let mut p = fp(addr, "/echo");
        p.method = Some("post".into());
        p.headers = Some(BTreeMap::from([("x-test".to_string(), "hdr".to_string())]));
        p.body = Some("payload".into());
        let out = run_http_fetch(p, CancellationToken::new()).await.unwrap();
        assert_eq!(out.text, "POST hdr payload");
    }

    #[tokio::test]
    async fn size_cap_and_timeout() {
        let addr = serve().await;
        let limits = FetchLimits {
            timeout: Duration::from_millis(500),
            max_body_bytes: 100_000,
        };
        let big = fetch_with_limits(fp(addr, "/big"), limits, CancellationToken::new())
            .await
            .unwrap();
        assert!(big.truncated);
        assert_eq!(big.body_bytes, 100_000);
        let err = fetch_with_limits(fp(addr, "/slow"), limits, CancellationToken::new())
            .await
            .unwrap_err();
        assert_eq!(err.code(), "HTTP_ERROR");
        assert!(err.to_string().contains("timed out"), "{err}");
    }

    #[tokio::test]
    async fn redirects_within_the_origin_are_followed() {
        let addr = serve().await;
        let out = run_http_fetch(fp(addr, "/moved"), CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(out.url, format!("http://{addr}/json"));
        assert_eq!(out.text, r#"{"ok":true}"#);
        let mut post = fp(addr, "/post-307");
        post.method = Some("POST".into());
        post.body = Some("again".into());
        let out = run_http_fetch(post.clone(), CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(out.text, "POST  again");
        post.url = format!("http://{addr}/post-303");
        let out = run_http_fetch(post, CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(out.text, "GET  ");
    }

    #[tokio::test]
    async fn a_redirect_to_another_scheme_is_refused_and_named() {
        let addr = serve().await;
        let err = run_http_fetch(fp(addr, "/to-file"), CancellationToken::new())
            .await
            .unwrap_err();
        assert_eq!(err.code(), "REDIRECT_REFUSED");
        let message = err.to_string();
        assert!(message.contains("file:///etc/passwd"), "{message}");
        assert!(
            message.contains(&format!("http://{addr}/to-file")),
            "{message}"
        );
        assert!(message.contains("scheme `file`"), "{message}");
    }

    #[tokio::test]
    async fn a_redirect_to_another_private_origin_is_refused() {
        let addr = serve().await;
        let err = run_http_fetch(fp(addr, "/to-localhost"), CancellationToken::new())
            .await
            .unwrap_err();
        assert_eq!(err.code(), "REDIRECT_REFUSED");
        let message = err.to_string();
        assert!(
            message.contains(&format!("http://localhost:{}/json", addr.port())),
            "{message}"
        );
        assert!(message.contains("private network"), "{message}");
    }

    #[tokio::test]
    async fn redirect_loops_stop_after_the_limit() {
        let addr = serve().await;
        let err = run_http_fetch(fp(addr, "/loop"), CancellationToken::new())
            .await
            .unwrap_err();
        assert_eq!(err.code(), "HTTP_ERROR");
        assert!(
            err.to_string()
                .contains(&format!("more than {MAX_REDIRECTS} redirects")),
            "{err}"
        );
    }

    #[tokio::test]
    async fn cancellation_and_bad_urls() {
        let addr = serve().await;
        let token = CancellationToken::new();
        token.cancel();
        let err = run_http_fetch(fp(addr, "/slow"), token).await.unwrap_err();
        assert_eq!(err.code(), "CANCELLED");
        for bad in ["file:///etc/passwd", "ftp://127.0.0.1/", "not a url"] {
            let p = HttpFetchParams {
                url: bad.into(),
                method: None,
                headers: None,
                body: None,
            };
            assert_eq!(
                run_http_fetch(p, CancellationToken::new())
                    .await
                    .unwrap_err()
                    .code(),
                "INVALID_PARAMS",
                "{bad}"
            );
        }
    }
}
