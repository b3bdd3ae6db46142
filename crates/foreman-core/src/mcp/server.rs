//! One configured server at run time: its state, and the supervisor task that starts it (in its
//! sandbox, see `confinement`), notices when it stops, and restarts it with exponential backoff.
//! A confined server that fails says so with its sandbox and the last words of its stderr.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::client::{
    CallHandle, ConnectError, Connection, Handler, connect_http, connect_stdio, list_tools,
};
use super::config::{DiscoveryConfig, ServerConfig, ServerKind, ServerSandbox, ServerSource};
use super::confinement::{Confined, Confinement};
use super::discovery::discover;
use super::error::ServerDown;
use super::naming::sanitise;
use super::stderr_tail::StderrTail;
use super::tool::RemoteTool;
use foreman_protocol::mcp::ServerState;

/// Restart delays: the first, and the cap the doubling stops at.
#[derive(Debug, Clone, Copy)]
pub struct Backoff {
    pub initial: Duration,
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self {
            initial: Duration::from_millis(500),
            max: Duration::from_secs(30),
        }
    }
}

/// A connection that ran this long resets the backoff when it stops.
const STABLE: Duration = Duration::from_secs(30);

/// How a connected server is called.
#[derive(Debug, Clone)]
pub enum Live {
    Mcp(CallHandle),
    Discovery(DiscoveryConfig),
}

#[derive(Debug, Clone)]
enum Phase {
    Disabled,
    AwaitingApproval,
    Starting,
    Connected { live: Live, pid: Option<u32> },
    Failed { error: String },
}

/// One server and its supervisor's shared state.
#[derive(Debug)]
pub struct ServerRuntime {
    pub config: ServerConfig,
    pub hash: String,
    /// Where it runs and how it is confined (shared by the hub's servers).
    confinement: Arc<Confinement>,
    /// The name of its private temporary directory in the sandbox, unique in the hub.
    own: String,
    backoff: Backoff,
    discovery_timeout: Duration,
    phase: Mutex<Phase>,
    known_tools: Mutex<Vec<RemoteTool>>,
    problems: Mutex<Vec<String>>,
    enabled: AtomicBool,
    approved: AtomicBool,
    disabled_tools: Mutex<HashSet<String>>,
    wake: Notify,
    tail: StderrTail,
}

/// What the hub reads about a server at one moment.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub state: ServerState,
    pub live: Option<Live>,
    pub pid: Option<u32>,
    pub tools: Vec<RemoteTool>,
    pub problems: Vec<String>,
}

impl ServerRuntime {
    /// `index`: its place in the hub, which makes its temporary directory's name unique.
    pub fn new(
        config: ServerConfig,
        index: usize,
        confinement: Arc<Confinement>,
        approved: bool,
        backoff: Backoff,
        discovery_timeout: Duration,
    ) -> Self {
        let approved = approved || config.source == ServerSource::User;
        Self {
            hash: config.definition_hash(),
            own: format!("{index}-{}", sanitise(&config.name)),
            enabled: AtomicBool::new(!config.disabled),
            approved: AtomicBool::new(approved),
            disabled_tools: Mutex::new(config.disabled_tools.iter().cloned().collect()),
            config,
            confinement,
            backoff,
            discovery_timeout,
            phase: Mutex::new(Phase::Starting),
            known_tools: Mutex::new(Vec::new()),
            problems: Mutex::new(Vec::new()),
            wake: Notify::new(),
            tail: StderrTail::default(),
        }
    }

    fn set(&self, phase: Phase) {
        if let Ok(mut p) = self.phase.lock() {
            *p = phase;
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        let phase = self
            .phase
            .lock()
            .map(|p| p.clone())
            .unwrap_or(Phase::Failed {
                error: "internal state unavailable".into(),
            });
        let tools = self
            .known_tools
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        let problems = self.problems.lock().map(|p| p.clone()).unwrap_or_default();
        let (state, live, pid) = match phase {
            Phase::Disabled => (ServerState::Disabled, None, None),
            Phase::AwaitingApproval => (ServerState::AwaitingApproval, None, None),
            Phase::Starting => (ServerState::Starting, None, None),
            Phase::Connected { live, pid } => (
                ServerState::Connected {
                    tools: u32::try_from(tools.len()).unwrap_or(u32::MAX),
                },
                Some(live),
                pid,
            ),
            Phase::Failed { error } => (
                ServerState::Failed {
                    error,
                    stderr_tail: self.tail.text(),
                },
                None,
                None,
            ),
        };
        Snapshot {
            state,
            live,
            pid,
            tools,
            problems,
        }
    }

    pub fn tool_enabled(&self, tool: &str) -> bool {
        self.disabled_tools
            .lock()
            .map(|d| !d.contains(tool))
            .unwrap_or(true)
    }

    pub fn enabled(&self) -> bool {
        self.enabled.load(Ordering::SeqCst)
    }

    pub fn set_tool_enabled(&self, tool: &str, enabled: bool) {
        if let Ok(mut d) = self.disabled_tools.lock() {
            if enabled {
                d.remove(tool);
            } else {
                d.insert(tool.to_owned());
            }
        }
    }

    pub fn set_enabled(&self, enabled: bool) {
        if self.enabled.swap(enabled, Ordering::SeqCst) != enabled {
            self.wake.notify_one();
        }
    }

    pub fn approve(&self) {
        self.approved.store(true, Ordering::SeqCst);
        self.wake.notify_one();
    }

    pub fn approved(&self) -> bool {
        self.approved.load(Ordering::SeqCst)
    }

    /// Stops the running connection (if any) and starts again at once.
    pub fn restart(&self) {
        self.wake.notify_one();
    }

    /// Waits for a wake-up; `true` when shutting down instead.
    async fn idle(&self, shutdown: &CancellationToken) -> bool {
        tokio::select! {
            () = self.wake.notified() => false,
            () = shutdown.cancelled() => true,
        }
    }

    fn connected(&self, tools: Vec<RemoteTool>, live: Live, pid: Option<u32>) {
        if let Ok(mut t) = self.known_tools.lock() {
            *t = tools;
        }
        self.set(Phase::Connected { live, pid });
    }

    /// How the program it starts is confined (`None` for a URL server).
    pub fn sandbox(&self) -> Option<ServerSandbox> {
        match &self.config.kind {
            ServerKind::Stdio { sandbox, .. } => Some(*sandbox),
            ServerKind::Discovery(_) => Some(self.confinement.discovery()),
            ServerKind::Http { .. } => None,
        }
    }

    /// `error`, said with the sandbox the server ran in and its stderr's last words.
    fn in_sandbox(&self, when: &'static str, sandbox: ServerSandbox, error: String) -> ServerDown {
        let said = self.tail.summary();
        ServerDown::InSandbox {
            when,
            sandbox: sandbox.describe(),
            detail: match said.is_empty() {
                true => error,
                false => format!("{said} ({error})"),
            },
            remedy: Confined::Server.remedy(),
        }
    }

    /// Runs one connection until it stops. `Ok(true)`: shutting down; `Ok(false)`: restart asked
    /// (start again at once); `Err`: why it failed or stopped.
    async fn run_once(&self, shutdown: &CancellationToken) -> Result<bool, ServerDown> {
        let handler = Handler::default();
        let cwd = self.confinement.cwd();
        let mut confined = None;
        let conn: Connection = match &self.config.kind {
            ServerKind::Discovery(d) => {
                let setting = self.confinement.discovery();
                let policy = self
                    .confinement
                    .policy(setting, &self.own, Confined::Discovery)?;
                let found =
                    discover(d, cwd, policy.as_ref(), &self.tail, self.discovery_timeout).await?;
                if let Ok(mut p) = self.problems.lock() {
                    *p = found.problems;
                }
                self.connected(found.tools, Live::Discovery(d.clone()), None);
                return Ok(self.idle(shutdown).await);
            }
            ServerKind::Stdio {
                command,
                args,
                env,
                sandbox,
            } => {
                let policy = self
                    .confinement
                    .policy(*sandbox, &self.own, Confined::Server)?;
                confined = policy.is_some().then_some(*sandbox);
                let started = connect_stdio(
                    command,
                    args,
                    env,
                    cwd,
                    policy.as_ref(),
                    &self.tail,
                    handler,
                )
                .await;
                match (started, confined) {
                    (Ok(conn), _) => conn,
                    // It never ran: nothing it needed was refused.
                    (Err(e @ ConnectError::Sandbox(_)), _) => return Err(e.into()),
                    (Err(e), Some(sandbox)) => {
                        return Err(self.in_sandbox(
                            "failed while starting",
                            sandbox,
                            e.to_string(),
                        ));
                    }
                    (Err(e), None) => return Err(e.into()),
                }
            }
            ServerKind::Http { url, headers } => connect_http(url, headers, handler).await?,
        };
        let handle = conn.call_handle();
        let tools_changed = conn.tools_changed();
        let peer = handle.peer.clone();
        let Connection {
            service,
            tools,
            pid,
        } = conn;
        self.connected(tools, Live::Mcp(handle), pid);
        let stopper = service.cancellation_token();
        let waiting = service.waiting();
        tokio::pin!(waiting);
        let stopped = loop {
            tokio::select! {
                quit = &mut waiting => break Some(match quit {
                    Ok(reason) => ServerDown::Stopped(format!("{reason:?}")),
                    Err(e) => ServerDown::Ended(e),
                }),
                () = tools_changed.notified() => match list_tools(&peer).await {
                    Ok(tools) => {
                        if let Ok(mut known) = self.known_tools.lock() {
                            *known = tools;
                        }
                    }
                    Err(e) => tracing::warn!(server = %self.config.name, "cannot list the changed tools: {e}"),
                },
                () = self.wake.notified() => break None,
                () = shutdown.cancelled() => break None,
            }
        };
        if let Some(error) = stopped {
            return Err(match confined {
                Some(sandbox) => {
                    self.tail.settled(Duration::from_secs(1)).await;
                    self.in_sandbox("stopped", sandbox, error.to_string())
                }
                None => error,
            });
        }
        stopper.cancel();
        let _ = tokio::time::timeout(Duration::from_secs(5), waiting).await;
        Ok(shutdown.is_cancelled())
    }

    /// The supervisor loop; ends when `shutdown` is cancelled.
    pub async fn supervise(self: Arc<Self>, shutdown: CancellationToken) {
        let mut delay = self.backoff.initial;
        while !shutdown.is_cancelled() {
            if !self.enabled() {
                self.set(Phase::Disabled);
                if self.idle(&shutdown).await {
                    break;
                }
                continue;
            }
            if !self.approved() {
                self.set(Phase::AwaitingApproval);
                if self.idle(&shutdown).await {
                    break;
                }
                continue;
            }
            self.set(Phase::Starting);
            let started = Instant::now();
            let error = match self.run_once(&shutdown).await {
                Ok(true) => break,
                Ok(false) => {
                    delay = self.backoff.initial;
                    continue;
                }
                Err(error) => error.to_string(),
            };
            if started.elapsed() >= STABLE {
                delay = self.backoff.initial;
            }
            tracing::warn!(server = %self.config.name, %error, "MCP server not running; restarting in {delay:?}");
            self.set(Phase::Failed { error });
            tokio::select! {
                () = tokio::time::sleep(delay) => delay = (delay * 2).min(self.backoff.max),
                () = self.wake.notified() => delay = self.backoff.initial,
                () = shutdown.cancelled() => break,
            }
        }
    }
}
