//! One running ACP agent: its process (a tree of its own, confined when a policy is given), and
//! JSON-RPC 2.0 over its stdio, one message per line.
//!
//! A reader task turns each line of the agent's stdout into a [`FromAgent`] on a channel the
//! engine reads (answers to Foreman's requests go to whoever waits on them instead). A line
//! that is not JSON-RPC is logged and skipped, never fatal. When stdout ends, every request
//! still waiting fails with [`AcpError::Exited`], and the channel's last message says how the
//! process ended, with the tail of its stderr. Dropping the connection ends the agent and
//! everything it started.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};

use super::spec::AgentSpec;
use crate::mcp::stderr_tail::StderrTail;
use crate::process_tree::{Leftovers, ProcessTree};
use crate::sandbox::{SandboxError, SandboxPolicy, confine};

/// The longest line read from an agent; a longer one is skipped as not JSON-RPC.
const MAX_LINE: usize = 64 << 20;
/// How many messages each way the log keeps.
const LOG_MESSAGES: usize = 200;
/// How long the end of an agent waits for the rest of its stderr.
const STDERR_GRACE: Duration = Duration::from_secs(1);

/// Why talking to an agent failed; the text is what the person reads.
#[derive(Debug, Clone, thiserror::Error)]
pub enum AcpError {
    #[error("could not start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("could not confine the agent: {0}")]
    Sandbox(String),
    #[error("the agent ended{}", exit_words(.code, .signal, .stderr))]
    Exited {
        code: Option<i32>,
        signal: Option<i32>,
        stderr: String,
    },
    #[error("the agent answered `{method}` with an error: {message}")]
    Remote { method: String, message: String },
    #[error("the agent's answer to `{method}` is not what ACP says: {reason}")]
    Malformed { method: String, reason: String },
}

fn exit_words(code: &Option<i32>, signal: &Option<i32>, stderr: &str) -> String {
    let how = match (code, signal) {
        (Some(code), _) => format!(" with exit code {code}"),
        (None, Some(signal)) => format!(", killed by signal {signal}"),
        (None, None) => String::new(),
    };
    let tail = stderr.trim();
    if tail.is_empty() {
        how
    } else {
        format!("{how}; the last it wrote: {tail}")
    }
}

/// A message from the agent that the engine handles.
#[derive(Debug, Clone)]
pub enum FromAgent {
    /// The agent asks something of the client: answer with [`AcpConnection::respond`].
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
    /// The agent's stdout ended (the last message).
    Exited(AcpError),
}

/// A JSON-RPC error answered to the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
}

impl RpcError {
    pub const INVALID_PARAMS: i64 = -32602;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INTERNAL: i64 = -32603;
    /// ACP's "resource not found".
    pub const NOT_FOUND: i64 = -32002;

    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

/// Which way a logged message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    ToAgent,
    FromAgent,
}

type Waiting = Arc<Mutex<HashMap<u64, (String, oneshot::Sender<Result<Value, AcpError>>)>>>;

/// A started agent.
#[derive(Debug)]
pub struct AcpConnection {
    lines: mpsc::UnboundedSender<String>,
    waiting: Waiting,
    next_id: AtomicU64,
    log: Arc<Mutex<VecDeque<(Direction, String)>>>,
    pid: Option<u32>,
    /// Ends the agent and what it started when dropped.
    _tree: ProcessTree,
}

impl AcpConnection {
    /// Starts `spec` in `cwd`, confined by `policy` when there is one. Messages from the agent
    /// arrive on the receiver.
    pub fn start(
        spec: &AgentSpec,
        cwd: &Path,
        policy: Option<&SandboxPolicy>,
    ) -> Result<(Self, mpsc::UnboundedReceiver<FromAgent>), AcpError> {
        let spawn_error = |reason: String| AcpError::Spawn {
            command: spec.command.clone(),
            reason,
        };
        let mut cmd = std::process::Command::new(&spec.command);
        // First, so the keeper starts before the agent confines itself.
        let prepared = crate::process_tree::prepare(&mut cmd, Leftovers::Stop)
            .map_err(|e| spawn_error(e.to_string()))?;
        cmd.args(&spec.args)
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .envs(spec.keys.iter().map(|(k, v)| (k, v.expose())))
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(policy) = policy {
            confine(&mut cmd, policy)
                .map_err(|e: SandboxError| AcpError::Sandbox(e.to_string()))?;
        }
        let mut child = tokio::process::Command::from(cmd)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| spawn_error(e.to_string()))?;
        let tree = ProcessTree::of(&child, prepared);
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(spawn_error(
                "its standard streams could not be opened".into(),
            ));
        };
        let tail = StderrTail::default();
        tokio::spawn(tail.clone().collect(stderr));
        let log = Arc::new(Mutex::new(VecDeque::new()));
        let waiting: Waiting = Arc::default();
        let (lines, to_write) = mpsc::unbounded_channel::<String>();
        tokio::spawn(write_lines(stdin, to_write));
        let (incoming_tx, incoming) = mpsc::unbounded_channel();
        let pid = child.id();
        tokio::spawn(read_lines(
            stdout,
            child,
            Arc::clone(&waiting),
            Arc::clone(&log),
            incoming_tx,
            tail,
        ));
        Ok((
            Self {
                lines,
                waiting,
                next_id: AtomicU64::new(0),
                log,
                pid,
                _tree: tree,
            },
            incoming,
        ))
    }

    /// The agent's process id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Sends the request `method` and gives the answer's receiver (owned: the caller may hold
    /// it across anything). The answer fails with [`AcpError::Exited`] when the agent ends first.
    pub fn request(
        &self,
        method: &str,
        params: Value,
    ) -> oneshot::Receiver<Result<Value, AcpError>> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.insert(id, (method.to_owned(), tx));
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        rx
    }

    /// Sends the notification `method`.
    pub fn notify(&self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Answers the agent's request `id`.
    pub fn respond(&self, id: Value, answer: Result<Value, RpcError>) {
        let message = match answer {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {"code": e.code, "message": e.message}
            }),
        };
        self.send(message);
    }

    /// The last messages each way, oldest first, for a bug report.
    pub fn log(&self) -> Vec<(Direction, String)> {
        self.log
            .lock()
            .map(|log| log.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn send(&self, message: Value) {
        let line = message.to_string();
        remember(&self.log, Direction::ToAgent, &line);
        // A closed channel means the agent is gone: the reader tells that.
        let _ = self.lines.send(line);
    }
}

fn remember(log: &Mutex<VecDeque<(Direction, String)>>, direction: Direction, line: &str) {
    const KEPT_CHARS: usize = 2_000;
    if let Ok(mut log) = log.lock() {
        let kept: String = line.chars().take(KEPT_CHARS).collect();
        log.push_back((direction, kept));
        while log.len() > LOG_MESSAGES {
            log.pop_front();
        }
    }
}

async fn write_lines(
    mut stdin: tokio::process::ChildStdin,
    mut lines: mpsc::UnboundedReceiver<String>,
) {
    while let Some(mut line) = lines.recv().await {
        line.push('\n');
        if stdin.write_all(line.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
            break;
        }
    }
}

async fn read_lines(
    stdout: tokio::process::ChildStdout,
    mut child: tokio::process::Child,
    waiting: Waiting,
    log: Arc<Mutex<VecDeque<(Direction, String)>>>,
    incoming: mpsc::UnboundedSender<FromAgent>,
    tail: StderrTail,
) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .await
        {
            Ok(0) | Err(_) => break,
            Ok(_) if line.len() > MAX_LINE && !line.ends_with(b"\n") => {
                tracing::warn!("an agent's line over {MAX_LINE} bytes was skipped");
                // The rest of that line.
                let mut rest = Vec::new();
                if reader.read_until(b'\n', &mut rest).await.is_err() {
                    break;
                }
            }
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                let text = text.trim();
                if text.is_empty() {
                    continue;
                }
                remember(&log, Direction::FromAgent, text);
                if let Some(message) = route(text, &waiting) {
                    let _ = incoming.send(message);
                }
            }
        }
    }
    let status = child.wait().await.ok();
    tail.settled(STDERR_GRACE).await;
    let error = AcpError::Exited {
        code: status.and_then(|s| s.code()),
        signal: status.and_then(crate::process_tree::exit_signal),
        stderr: last_lines(&tail.text(), 5),
    };
    let pending: Vec<_> = waiting
        .lock()
        .map(|mut waiting| waiting.drain().collect())
        .unwrap_or_default();
    for (_, (_, tx)) in pending {
        let _ = tx.send(Err(error.clone()));
    }
    let _ = incoming.send(FromAgent::Exited(error));
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// One line from the agent: an answer goes to who waits for it; a request or notification is
/// the engine's. Anything else is logged and skipped.
fn route(text: &str, waiting: &Waiting) -> Option<FromAgent> {
    let Ok(Value::Object(mut message)) = serde_json::from_str::<Value>(text) else {
        tracing::warn!(line = %text.chars().take(200).collect::<String>(), "an agent wrote a line that is not JSON-RPC");
        return None;
    };
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let params = message.remove("params").unwrap_or(Value::Null);
    match (method, message.remove("id")) {
        (Some(method), Some(id)) => Some(FromAgent::Request { id, method, params }),
        (Some(method), None) => Some(FromAgent::Notification { method, params }),
        (None, Some(id)) => {
            let id = id.as_u64()?;
            let (method, tx) = waiting.lock().ok()?.remove(&id)?;
            let answer = match (message.remove("result"), message.remove("error")) {
                (_, Some(error)) => Err(AcpError::Remote {
                    method,
                    message: error
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("no message")
                        .to_owned(),
                }),
                (result, None) => Ok(result.unwrap_or(Value::Null)),
            };
            let _ = tx.send(answer);
            None
        }
        (None, None) => {
            tracing::warn!("an agent wrote a JSON line that is neither a request nor an answer");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_goes_to_its_waiter_and_garbage_is_skipped() {
        let waiting: Waiting = Arc::default();
        let (tx, mut rx) = oneshot::channel();
        waiting
            .lock()
            .unwrap()
            .insert(7, ("session/new".into(), tx));
        assert!(route("not json at all", &waiting).is_none());
        assert!(
            route(
                r#"{"jsonrpc":"2.0","id":7,"result":{"sessionId":"a"}}"#,
                &waiting
            )
            .is_none()
        );
        assert_eq!(rx.try_recv().unwrap().unwrap()["sessionId"], "a");
        match route(
            r#"{"jsonrpc":"2.0","id":"x","method":"fs/read_text_file","params":{"path":"/a"}}"#,
            &waiting,
        ) {
            Some(FromAgent::Request { id, method, params }) => {
                assert_eq!(id, "x");
                assert_eq!(method, "fs/read_text_file");
                assert_eq!(params["path"], "/a");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_exit_says_its_code_and_the_last_words() {
        let e = AcpError::Exited {
            code: Some(3),
            signal: None,
            stderr: "boom".into(),
        };
        assert_eq!(
            e.to_string(),
            "the agent ended with exit code 3; the last it wrote: boom"
        );
    }
}
