//! A scripted HTTP/SSE server on 127.0.0.1 for provider tests.
//!
//! Each incoming connection takes the next [`ScriptedResponse`] from the script and plays it:
//! status and headers, then the body as HTTP chunks split at chosen byte boundaries, with delays
//! between pieces; it can also drop the connection mid-body, stall (send nothing more while the
//! connection stays open), or reset the connection before answering. Every request is recorded
//! (method, path, headers, body) and so is the moment the client closed each connection, so tests
//! can assert what was sent and how fast a cancelled stream let go.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// How a response body is cut into pieces (each written and flushed separately).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// The whole body in one piece.
    Whole,
    /// Pieces of `n` bytes.
    Every(usize),
    /// Cut at these byte offsets.
    At(Vec<usize>),
}

/// How a response ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The body is sent completely and terminated properly.
    Complete,
    /// The connection is closed abruptly after this many body bytes.
    DropAfter(usize),
    /// After this many body bytes nothing more is sent; the connection stays open until the
    /// client closes it.
    StallAfter(usize),
    /// The connection is closed right after the request is read, before any response byte.
    ResetBeforeResponse,
}

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct ScriptedResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub split: Split,
    /// Wait before the status line.
    pub initial_delay: Duration,
    /// Wait between body pieces.
    pub piece_delay: Duration,
    pub ending: Ending,
}

impl ScriptedResponse {
    /// A 200 `text/event-stream` answer with this body.
    pub fn sse(body: impl Into<Vec<u8>>) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: body.into(),
            split: Split::Whole,
            initial_delay: Duration::ZERO,
            piece_delay: Duration::ZERO,
            ending: Ending::Complete,
        }
    }

    /// A JSON answer with this status (error bodies).
    pub fn json(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            ..Self::sse(body.as_bytes().to_vec())
        }
    }

    /// A connection closed before any response byte.
    pub fn reset() -> Self {
        Self {
            ending: Ending::ResetBeforeResponse,
            ..Self::sse(Vec::new())
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    pub fn split(mut self, split: Split) -> Self {
        self.split = split;
        self
    }

    pub fn initial_delay(mut self, delay: Duration) -> Self {
        self.initial_delay = delay;
        self
    }

    pub fn piece_delay(mut self, delay: Duration) -> Self {
        self.piece_delay = delay;
        self
    }

    pub fn drop_after(mut self, bytes: usize) -> Self {
        self.ending = Ending::DropAfter(bytes);
        self
    }

    pub fn stall_after(mut self, bytes: usize) -> Self {
        self.ending = Ending::StallAfter(bytes);
        self
    }

    fn pieces(&self, limit: usize) -> Vec<&[u8]> {
        let body = &self.body[..limit.min(self.body.len())];
        let mut cuts: Vec<usize> = match &self.split {
            Split::Whole => Vec::new(),
            Split::Every(n) => (1..)
                .map(|i| i * (*n).max(1))
                .take_while(|c| *c < body.len())
                .collect(),
            Split::At(offsets) => offsets.clone(),
        };
        cuts.retain(|cut| *cut > 0 && *cut < body.len());
        cuts.sort_unstable();
        cuts.dedup();
        let mut pieces = Vec::new();
        let mut start = 0;
        for cut in cuts.into_iter().chain(std::iter::once(body.len())) {
            if cut > start {
                pieces.push(&body[start..cut]);
            }
            start = cut;
        }
        pieces
    }
}

/// A request the server received.
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    /// Header names in lower case, in arrival order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RecordedRequest {
    /// The first value of a header (name is case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

#[derive(Debug, Default)]
struct State {
    script: std::collections::VecDeque<ScriptedResponse>,
    requests: Vec<RecordedRequest>,
    /// When the client closed each stalled connection.
    closed: Vec<Instant>,
}

/// The running server; stops when dropped.
#[derive(Debug)]
pub struct ScriptedServer {
    addr: std::net::SocketAddr,
    state: Arc<Mutex<State>>,
    task: JoinHandle<()>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ScriptedServer {
    /// Starts a server on 127.0.0.1 (random port) that plays `script`, one response per connection.
    pub async fn start(script: Vec<ScriptedResponse>) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let state = Arc::new(Mutex::new(State {
            script: script.into(),
            ..State::default()
        }));
        let shared = Arc::clone(&state);
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let shared = Arc::clone(&shared);
                tokio::spawn(async move {
                    // A client that hangs up early is part of many scripts; nothing to report.
                    let _ = serve(socket, shared).await;
                });
            }
        });
        Ok(Self { addr, state, task })
    }

    /// `http://127.0.0.1:PORT`
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Appends a response to the script.
    pub fn push(&self, response: ScriptedResponse) {
        lock(&self.state).script.push_back(response);
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.state).requests.clone()
    }

    /// When the client closed each stalled connection, in order.
    pub fn closed_connections(&self) -> Vec<Instant> {
        lock(&self.state).closed.clone()
    }

    /// Waits (up to `timeout`) until `count` stalled connections were closed by the client.
    pub async fn wait_closed(&self, count: usize, timeout: Duration) -> Option<Instant> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(at) = self.closed_connections().get(count.wrapping_sub(1)) {
                return Some(*at);
            }
            if Instant::now() > deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn read_request(socket: &mut TcpStream) -> std::io::Result<Option<RecordedRequest>> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(pos) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split(' ');
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = buffer[head_end..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Ok(Some(RecordedRequest {
        method,
        path,
        headers,
        body,
    }))
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        529 => "Overloaded",
        _ => "Status",
    }
}

async fn serve(mut socket: TcpStream, state: Arc<Mutex<State>>) -> std::io::Result<()> {
    let Some(request) = read_request(&mut socket).await? else {
        return Ok(());
    };
    let response = {
        let mut state = lock(&state);
        state.requests.push(request);
        state.script.pop_front()
    };
    let response = response.unwrap_or_else(|| {
        ScriptedResponse::json(
            500,
            r#"{"error":{"message":"scripted server: script exhausted"}}"#,
        )
    });
    if response.ending == Ending::ResetBeforeResponse {
        // Dropping the socket closes the connection without a response byte.
        return Ok(());
    }
    tokio::time::sleep(response.initial_delay).await;
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        response.status,
        reason(response.status)
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("transfer-encoding: chunked\r\nconnection: close\r\n\r\n");
    socket.write_all(head.as_bytes()).await?;
    socket.flush().await?;
    let limit = match response.ending {
        Ending::DropAfter(n) | Ending::StallAfter(n) => n,
        _ => response.body.len(),
    };
    for (i, piece) in response.pieces(limit).into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(response.piece_delay).await;
        }
        socket
            .write_all(format!("{:x}\r\n", piece.len()).as_bytes())
            .await?;
        socket.write_all(piece).await?;
        socket.write_all(b"\r\n").await?;
        socket.flush().await?;
    }
    match response.ending {
        Ending::Complete => {
            socket.write_all(b"0\r\n\r\n").await?;
            socket.flush().await?;
        }
        Ending::DropAfter(_) => {
            // Returning drops the socket: the chunked body stays unterminated.
        }
        Ending::StallAfter(_) => {
            // Wait for the client to hang up, and note when it did.
            let mut sink = [0u8; 1024];
            loop {
                match socket.read(&mut sink).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
            lock(&state).closed.push(Instant::now());
        }
        Ending::ResetBeforeResponse => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_bodies_at_offsets_and_limits() {
        let response = ScriptedResponse::sse("abcdefgh").split(Split::At(vec![3, 0, 3, 5, 99]));
        assert_eq!(
            response.pieces(8),
            vec![b"abc".as_slice(), b"de".as_slice(), b"fgh".as_slice()]
        );
        assert_eq!(response.pieces(4), vec![b"abc".as_slice(), b"d".as_slice()]);
        let every = ScriptedResponse::sse("abcde").split(Split::Every(2));
        assert_eq!(
            every.pieces(5),
            vec![b"ab".as_slice(), b"cd".as_slice(), b"e".as_slice()]
        );
    }
}
