//! One connection to an MCP server through `rmcp`: start it (a child process, confined when its
//! sandbox says so, or streamable HTTP), list its tools, call one with progress, cancellation and
//! a timeout.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use process_wrap::tokio::CommandWrap;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotification, CancelledNotificationParam,
    ClientRequest, ProgressNotificationParam, RequestId, ServerResult,
};
use rmcp::service::{
    ClientInitializeError, NotificationContext, Peer, PeerRequestOptions, RoleClient,
    RunningService, ServiceError,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::result::{McpOutcome, images, outcome};
use super::stderr_tail::StderrTail;
use super::tool::RemoteTool;
use crate::sandbox::{SandboxError, SandboxPolicy, confine};
use crate::tools::{OutputSink, ToolError, codes};

/// How long a server may take to answer `initialize` and `tools/list`.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// Where progress notifications go: progress token → the running call's live output.
///
/// A notification can arrive before the call has registered its sink (the token is only known
/// once the request is sent); such lines wait in a small buffer and are delivered on
/// registration.
#[derive(Debug, Clone, Default)]
pub struct ProgressRoutes(Arc<Mutex<Routes>>);

#[derive(Debug, Default)]
struct Routes {
    sinks: HashMap<String, OutputSink>,
    early: HashMap<String, Vec<String>>,
}

/// Most tokens with early lines kept (a misbehaving server cannot grow the buffer forever).
const EARLY_TOKENS: usize = 64;

impl ProgressRoutes {
    fn insert(&self, key: String, sink: OutputSink) {
        if let Ok(mut routes) = self.0.lock() {
            for line in routes.early.remove(&key).unwrap_or_default() {
                sink.text(&line);
            }
            routes.sinks.insert(key, sink);
        }
    }

    fn remove(&self, key: &str) {
        if let Ok(mut routes) = self.0.lock() {
            routes.sinks.remove(key);
            routes.early.remove(key);
        }
    }

    fn send(&self, key: &str, text: &str) {
        if let Ok(mut routes) = self.0.lock() {
            match routes.sinks.get(key) {
                Some(sink) => sink.text(text),
                None => {
                    if routes.early.len() >= EARLY_TOKENS && !routes.early.contains_key(key) {
                        routes.early.clear();
                    }
                    routes
                        .early
                        .entry(key.to_owned())
                        .or_default()
                        .push(text.to_owned());
                }
            }
        }
    }
}

fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// The live-output line for one progress notification: `progress 3/10: message`.
pub fn progress_line(progress: f64, total: Option<f64>, message: Option<&str>) -> String {
    let mut line = format!("progress {}", number(progress));
    if let Some(total) = total {
        line.push_str(&format!("/{}", number(total)));
    }
    if let Some(message) = message.filter(|m| !m.is_empty()) {
        line.push_str(": ");
        line.push_str(message);
    }
    line.push('\n');
    line
}

fn token_key(token: &impl serde::Serialize) -> String {
    serde_json::to_string(token).unwrap_or_default()
}

/// The client side of the connection: routes progress notifications and notes that the
/// server's tool list changed.
#[derive(Debug, Clone, Default)]
pub struct Handler {
    routes: ProgressRoutes,
    tools_changed: Arc<tokio::sync::Notify>,
}

impl ClientHandler for Handler {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let line = progress_line(params.progress, params.total, params.message.as_deref());
        self.routes.send(&token_key(&params.progress_token), &line);
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.tools_changed.notify_one();
    }
}

/// The server's tools (those Foreman can call).
pub async fn list_tools(peer: &Peer<RoleClient>) -> Result<Vec<RemoteTool>, ServiceError> {
    let tools = peer.list_all_tools().await?;
    Ok(tools
        .iter()
        .filter_map(|t| serde_json::to_value(t).ok())
        .filter_map(|v| RemoteTool::from_mcp(&v))
        .collect())
}

/// A running connection.
#[derive(Debug)]
pub struct Connection {
    pub service: RunningService<RoleClient, Handler>,
    pub tools: Vec<RemoteTool>,
    /// The child process, for stdio servers.
    pub pid: Option<u32>,
}

/// What a call needs from a connection (cheap to clone, usable while the server runs).
#[derive(Debug, Clone)]
pub struct CallHandle {
    pub peer: Peer<RoleClient>,
    pub routes: ProgressRoutes,
}

/// Why a server could not be reached.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("cannot put it in the sandbox: {0}")]
    Sandbox(#[source] SandboxError),
    #[error("invalid header `{0}`")]
    Header(String),
    #[error("the MCP handshake failed: {0}")]
    Handshake(#[source] Box<ClientInitializeError>),
    #[error("listing the tools failed: {0}")]
    ListTools(#[source] ServiceError),
    #[error("the server did not answer within {} s", CONNECT_TIMEOUT.as_secs())]
    Timeout,
}

async fn finish(
    transport_result: Result<RunningService<RoleClient, Handler>, ClientInitializeError>,
    pid: Option<u32>,
) -> Result<Connection, ConnectError> {
    let service = transport_result.map_err(|e| ConnectError::Handshake(Box::new(e)))?;
    let tools = list_tools(service.peer())
        .await
        .map_err(ConnectError::ListTools)?;
    Ok(Connection {
        service,
        tools,
        pid,
    })
}

/// How long a failed start waits for the rest of the server's stderr.
const STDERR_GRACE: Duration = Duration::from_secs(2);

/// Starts `command` in a process tree of its own (so stopping it ends what it started), confined to
/// `sandbox` when there is one, with stderr kept in `tail`, and connects. When it fails, the
/// tail holds what the server wrote up to its end.
pub async fn connect_stdio(
    command: &str,
    args: &[String],
    env: &BTreeMap<String, String>,
    cwd: Option<&Path>,
    sandbox: Option<&SandboxPolicy>,
    tail: &StderrTail,
    handler: Handler,
) -> Result<Connection, ConnectError> {
    let mut cmd = std::process::Command::new(command);
    let spawn_error = |source| ConnectError::Spawn {
        command: command.to_owned(),
        source,
    };
    // First, so the keeper starts before the server confines itself.
    let prepared = crate::process_tree::prepare(&mut cmd, crate::process_tree::Leftovers::Stop)
        .map_err(spawn_error)?;
    cmd.args(args).envs(env);
    if let Some(cwd) = cwd {
        cmd.current_dir(cwd);
    }
    // After its `env`: the sandbox's own variables (`TMPDIR`, the ones it removes) win.
    if let Some(policy) = sandbox {
        confine(&mut cmd, policy).map_err(ConnectError::Sandbox)?;
    }
    let mut wrap = CommandWrap::from(tokio::process::Command::from(cmd));
    crate::process_tree::wrap(&mut wrap, prepared);
    let (transport, stderr) = TokioChildProcess::builder(wrap)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_error)?;
    let pid = transport.id();
    tail.clear();
    if let Some(stderr) = stderr {
        tokio::spawn(tail.clone().collect(stderr));
    }
    let served = tokio::time::timeout(CONNECT_TIMEOUT, async {
        let service = handler.serve(transport).await;
        finish(service, pid).await
    })
    .await
    .map_err(|_| ConnectError::Timeout)
    .and_then(|connected| connected);
    if served.is_err() {
        // The process is gone with the transport; its last words follow.
        tail.settled(STDERR_GRACE).await;
    }
    served
}

/// Connects to a streamable HTTP server (`http://` or `https://`).
pub async fn connect_http(
    url: &str,
    headers: &BTreeMap<String, String>,
    handler: Handler,
) -> Result<Connection, ConnectError> {
    let mut map = HashMap::new();
    for (name, value) in headers {
        let key = http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| ConnectError::Header(name.clone()))?;
        let value =
            http::HeaderValue::from_str(value).map_err(|_| ConnectError::Header(name.clone()))?;
        map.insert(key, value);
    }
    crate::tls::install_provider();
    let config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(map);
    let transport = StreamableHttpClientTransport::from_config(config);
    let served = tokio::time::timeout(CONNECT_TIMEOUT, async {
        let service = handler.serve(transport).await;
        finish(service, None).await
    })
    .await;
    served.map_err(|_| ConnectError::Timeout)?
}

impl Connection {
    /// Notified when the server says its tool list changed.
    pub fn tools_changed(&self) -> Arc<tokio::sync::Notify> {
        Arc::clone(&self.service.service().tools_changed)
    }

    /// What calls use while the connection lives.
    pub fn call_handle(&self) -> CallHandle {
        CallHandle {
            peer: self.service.peer().clone(),
            routes: self.service.service().routes.clone(),
        }
    }
}

fn failed(message: impl Into<String>) -> ToolError {
    ToolError::new(codes::EXECUTION_FAILED, message)
}

async fn send_cancelled(peer: &Peer<RoleClient>, id: RequestId, reason: &str) {
    let notification = CancelledNotification::new(CancelledNotificationParam::new(
        Some(id),
        Some(reason.to_owned()),
    ));
    let _ = peer.send_notification(notification.into()).await;
}

impl CallHandle {
    /// Calls `tool` with `arguments`. Progress and the result's images go to `output`; cancelling `cancel` or running
    /// past `timeout` sends `notifications/cancelled` to the server and ends the call.
    pub async fn call(
        &self,
        tool: &str,
        arguments: Value,
        cancel: CancellationToken,
        output: OutputSink,
        timeout: Duration,
    ) -> McpOutcome {
        let arguments = match arguments {
            Value::Object(map) => map,
            Value::Null => serde_json::Map::new(),
            other => {
                return Err(ToolError::new(
                    codes::INVALID_PARAMS,
                    format!("the arguments must be a JSON object, not {other}"),
                ));
            }
        };
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments),
        ));
        let handle = self
            .peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(|e| {
                ToolError::new(
                    codes::TOOL_UNAVAILABLE,
                    format!("the MCP server did not take the call: {e}"),
                )
            })?;
        let key = token_key(&handle.progress_token);
        self.routes.insert(key.clone(), output.clone());
        let id = handle.id.clone();
        let result = tokio::select! {
            response = handle.await_response() => match response {
                Ok(ServerResult::CallToolResult(result)) => match serde_json::to_value(&result) {
                    Ok(value) => {
                        output.images(images(&value));
                        outcome(&value)
                    }
                    Err(e) => Err(failed(format!("cannot read the result: {e}"))),
                },
                Ok(_) => Err(failed("the MCP server answered with something other than a tool result")),
                Err(e) => Err(failed(format!("the MCP call failed: {e}"))),
            },
            () = cancel.cancelled() => {
                send_cancelled(&self.peer, id, "cancelled by the user").await;
                Err(ToolError::new(codes::CANCELLED, "the call was cancelled"))
            }
            () = tokio::time::sleep(timeout) => {
                send_cancelled(&self.peer, id, "timed out").await;
                Err(ToolError::new(
                    codes::TIMEOUT,
                    format!("the MCP call took longer than {} s", timeout.as_secs()),
                ))
            }
        };
        self.routes.remove(&key);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::CallOutput;

    #[test]
    fn progress_lines() {
        assert_eq!(
            progress_line(3.0, Some(10.0), Some("copying")),
            "progress 3/10: copying\n"
        );
        assert_eq!(progress_line(0.5, None, None), "progress 0.5\n");
        assert_eq!(progress_line(1.0, Some(2.0), Some("")), "progress 1/2\n");
    }

    #[tokio::test]
    async fn progress_goes_to_the_registered_sink_only() {
        let routes = ProgressRoutes::default();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        // A line that arrives before the call registered its sink is delivered on registration.
        routes.send("1", "progress 1/3\n");
        routes.insert("1".into(), OutputSink::new("c1", tx));
        routes.send("1", "progress 2/3\n");
        routes.send("2", "elsewhere\n");
        routes.remove("1");
        routes.send("1", "late\n");
        let line = |text: &str| Some(("c1".to_owned(), CallOutput::Text(text.to_owned())));
        assert_eq!(rx.recv().await, line("progress 1/3\n"));
        assert_eq!(rx.recv().await, line("progress 2/3\n"));
        assert!(rx.try_recv().is_err());
    }
}
