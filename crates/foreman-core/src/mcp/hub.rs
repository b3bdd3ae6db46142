//! [`McpHub`]: every configured server, shared by the sessions of a workspace. The programs it
//! starts run in their sandbox ([`HubOptions::sandbox`], see `confinement`); a discovered tool's
//! call runs in the sandbox of the session that calls it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::config::{McpConfig, ServerKind, ServerSource};
use super::confinement::{Confinement, HubSandbox};
use super::discovery;
pub use super::error::McpError;
use super::external::{ExternalCalls, ExternalTool};
use super::naming::{assign, qualified, sanitise};
use super::server::{Backoff, Live, ServerRuntime, Snapshot};
use super::tool::RemoteTool;
use crate::sandbox::SandboxPolicy;
use crate::store::now_ms;
use crate::store::{Store, StoreError};
use crate::tools::{AnyTool, OutputSink, ToolError, ToolOutput, codes};
use foreman_protocol::mcp::{HubStatus, PendingServer, ServerState, ServerStatus, ToolStatus};

/// The default per-call timeout (a server's `"timeout"` replaces it for that server).
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// The default number of enabled tools past which [`HubStatus::warnings`] warns.
pub const DEFAULT_TOOL_LIMIT: usize = 40;

/// How the hub runs its servers.
#[derive(Debug, Clone)]
pub struct HubOptions {
    /// The workspace root: stdio servers and discovery commands run there, and workspace
    /// approvals are keyed by its path (unless `approvals_for` says otherwise).
    pub workspace: Option<PathBuf>,
    /// The folder whose approvals count, when it is not `workspace`: a task's worktree runs
    /// its servers there but shares the approvals of the folder the user opened (a definition
    /// its agent changed has another hash, and asks again).
    pub approvals_for: Option<PathBuf>,
    /// Where workspace-server approvals are read and recorded.
    pub store: Option<Store>,
    /// Start workspace servers without an approval (the CLI's `--trust-workspace-mcp`).
    pub trust_workspace: bool,
    /// How long a call may take, for servers without their own `"timeout"` and for discovered
    /// tools.
    pub call_timeout: Duration,
    /// Enabled tools (built-ins included) above which the status warns.
    pub tool_limit: usize,
    /// How many built-in tools the sessions have, for the tool-count guard.
    pub builtin_tools: usize,
    pub backoff: Backoff,
    /// The sessions' sandbox settings: the discovery command runs at their level, and every
    /// confined program gets their hidden paths.
    pub sandbox: HubSandbox,
}

impl Default for HubOptions {
    fn default() -> Self {
        Self {
            workspace: None,
            approvals_for: None,
            store: None,
            trust_workspace: false,
            call_timeout: DEFAULT_CALL_TIMEOUT,
            tool_limit: DEFAULT_TOOL_LIMIT,
            builtin_tools: 11,
            backoff: Backoff::default(),
            sandbox: HubSandbox::default(),
        }
    }
}

#[derive(Debug)]
struct HubInner {
    servers: Vec<Arc<ServerRuntime>>,
    options: HubOptions,
    config_problems: Vec<String>,
    shutdown: CancellationToken,
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

impl Drop for HubInner {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// Every MCP server and discovery command of the user's and the workspace's configuration.
/// Cheap to clone; servers stop when the last clone is dropped or [`McpHub::shutdown`] is called.
#[derive(Debug, Clone)]
pub struct McpHub {
    inner: Arc<HubInner>,
}

/// One external tool under its model-facing name.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    server: usize,
    tool: RemoteTool,
    /// The built-in it replaces (its name is then the built-in's).
    replaces: Option<String>,
}

fn workspace_key(options: &HubOptions) -> Option<String> {
    options
        .approvals_for
        .as_ref()
        .or(options.workspace.as_ref())
        .map(|w| w.display().to_string())
}

impl McpHub {
    /// Starts every enabled, approved server (in the background: `status()` shows them as
    /// starting). Must be called on a Tokio runtime.
    pub async fn start(config: McpConfig, options: HubOptions) -> Result<Self, StoreError> {
        let key = workspace_key(&options);
        let confinement = Arc::new(Confinement::new(
            options.sandbox.clone(),
            options.workspace.as_deref(),
        ));
        let mut servers = Vec::new();
        for (index, server) in config.servers.into_iter().enumerate() {
            let approved = match (&options.store, &key, server.source) {
                (_, _, ServerSource::User) => true,
                _ if options.trust_workspace => true,
                (Some(store), Some(key), ServerSource::Workspace) => {
                    store
                        .is_mcp_server_approved(key, &server.name, &server.definition_hash())
                        .await?
                }
                _ => false,
            };
            servers.push(Arc::new(ServerRuntime::new(
                server,
                index,
                Arc::clone(&confinement),
                approved,
                options.backoff,
                options.call_timeout,
            )));
        }
        let shutdown = CancellationToken::new();
        let tasks = servers
            .iter()
            .map(|s| tokio::spawn(Arc::clone(s).supervise(shutdown.clone())))
            .collect();
        Ok(Self {
            inner: Arc::new(HubInner {
                servers,
                options,
                config_problems: config.problems,
                shutdown,
                tasks: Mutex::new(tasks),
            }),
        })
    }

    /// Stops every server and waits for them to be gone.
    pub async fn shutdown(&self) {
        self.inner.shutdown.cancel();
        let tasks: Vec<JoinHandle<()>> = self
            .inner
            .tasks
            .lock()
            .map(|mut t| t.drain(..).collect())
            .unwrap_or_default();
        for task in tasks {
            let _ = task.await;
        }
    }

    fn server(&self, name: &str) -> Result<&Arc<ServerRuntime>, McpError> {
        self.inner
            .servers
            .iter()
            .find(|s| s.config.name == name)
            .ok_or_else(|| McpError::UnknownServer(name.to_owned()))
    }

    /// Waits (at most `timeout`) until no server is still starting, so that a session spawned
    /// next is offered their tools (a session takes its tool definitions when it starts).
    pub async fn wait_settled(&self, timeout: Duration) {
        let deadline = tokio::time::Instant::now() + timeout;
        while tokio::time::Instant::now() < deadline
            && self
                .snapshots()
                .iter()
                .any(|s| s.state == ServerState::Starting)
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Stops the server (if it runs) and starts it again now.
    pub fn restart(&self, server: &str) -> Result<(), McpError> {
        self.server(server)?.restart();
        Ok(())
    }

    /// Turns a server on or off (for this hub's lifetime; the configuration file is unchanged).
    pub fn set_server_enabled(&self, server: &str, enabled: bool) -> Result<(), McpError> {
        self.server(server)?.set_enabled(enabled);
        Ok(())
    }

    /// Offers a server's tool to the model or not (`tool` is the server's own name for it).
    pub fn set_tool_enabled(
        &self,
        server: &str,
        tool: &str,
        enabled: bool,
    ) -> Result<(), McpError> {
        let s = self.server(server)?;
        if !s.snapshot().tools.iter().any(|t| t.name == tool) {
            return Err(McpError::UnknownTool {
                server: server.to_owned(),
                tool: tool.to_owned(),
            });
        }
        s.set_tool_enabled(tool, enabled);
        Ok(())
    }

    /// Workspace servers waiting for the user's approval.
    pub fn pending(&self) -> Vec<PendingServer> {
        self.inner
            .servers
            .iter()
            .filter(|s| !s.approved())
            .map(|s| PendingServer {
                name: s.config.name.clone(),
                target: s.config.describe(),
                definition_hash: s.hash.clone(),
            })
            .collect()
    }

    /// Approves a workspace server: records it in the store (so later runs start it too) and
    /// starts it.
    pub async fn approve(&self, server: &str) -> Result<(), McpError> {
        let s = self.server(server)?;
        if s.config.source == ServerSource::Workspace {
            let store = self
                .inner
                .options
                .store
                .as_ref()
                .ok_or_else(|| McpError::NoStore(server.to_owned()))?;
            let key = workspace_key(&self.inner.options).unwrap_or_default();
            store
                .approve_mcp_server(&key, server, &s.hash, now_ms())
                .await?;
        }
        s.approve();
        Ok(())
    }

    /// How long a call to a tool of `server` (an index) may take.
    fn call_timeout(&self, server: usize) -> Duration {
        self.inner
            .servers
            .get(server)
            .and_then(|s| s.config.timeout)
            .unwrap_or(self.inner.options.call_timeout)
    }

    fn snapshots(&self) -> Vec<Snapshot> {
        self.inner.servers.iter().map(|s| s.snapshot()).collect()
    }

    /// Every known external tool under its unique name (`reserved`: the built-in names). A tool
    /// whose server's configuration says it replaces the built-in of its name takes that name
    /// (the first such tool, in server order); the others are named uniquely around them.
    fn entries(&self, snapshots: &[Snapshot], reserved: &[String]) -> Vec<Entry> {
        let mut fixed: Vec<Entry> = Vec::new();
        let mut wanted = Vec::new();
        let mut owners = Vec::new();
        for (i, snap) in snapshots.iter().enumerate() {
            let server = &self.inner.servers[i].config;
            for tool in &snap.tools {
                let replaces = server.replaces.contains(&tool.name)
                    && reserved.contains(&tool.name)
                    && !fixed.iter().any(|e| e.name == tool.name);
                if replaces {
                    fixed.push(Entry {
                        name: tool.name.clone(),
                        server: i,
                        tool: tool.clone(),
                        replaces: Some(tool.name.clone()),
                    });
                    continue;
                }
                let name = if matches!(server.kind, ServerKind::Discovery(_)) {
                    sanitise(&tool.name)
                } else {
                    qualified(&server.name, &tool.name)
                };
                wanted.push((server.name.clone(), tool.name.clone(), name));
                owners.push((i, tool.clone()));
            }
        }
        let named =
            assign(&wanted, reserved)
                .into_iter()
                .zip(owners)
                .map(|(name, (server, tool))| Entry {
                    name,
                    server,
                    tool,
                    replaces: None,
                });
        fixed.into_iter().chain(named).collect()
    }

    fn offered(&self, snapshots: &[Snapshot], entry: &Entry) -> bool {
        let server = &self.inner.servers[entry.server];
        snapshots[entry.server].live.is_some()
            && server.enabled()
            && server.tool_enabled(&entry.tool.name)
    }

    /// What is wrong with the configuration the hub was started from (an entry that cannot
    /// start, a file that does not parse).
    pub fn config_problems(&self) -> &[String] {
        &self.inner.config_problems
    }

    /// The status of every server, and warnings.
    pub fn status(&self, reserved: &[String]) -> HubStatus {
        let snapshots = self.snapshots();
        let entries = self.entries(&snapshots, reserved);
        let mut servers = Vec::new();
        for (i, snap) in snapshots.iter().enumerate() {
            let runtime = &self.inner.servers[i];
            let tools = entries
                .iter()
                .filter(|e| e.server == i)
                .map(|e| ToolStatus {
                    name: e.name.clone(),
                    server_tool: e.tool.name.clone(),
                    description: e.tool.description.clone(),
                    enabled: runtime.tool_enabled(&e.tool.name),
                    read_only: e.tool.read_only,
                    destructive: e.tool.destructive,
                    replaces: e.replaces.clone(),
                })
                .collect();
            servers.push(ServerStatus {
                name: runtime.config.name.clone(),
                source: runtime.config.source,
                target: runtime.config.describe(),
                state: snap.state.clone(),
                tools,
                problems: snap.problems.clone(),
                pid: snap.pid,
                call_timeout_secs: u32::try_from(self.call_timeout(i).as_secs())
                    .unwrap_or(u32::MAX),
                sandbox: runtime.sandbox(),
            });
        }
        let external = entries
            .iter()
            .filter(|e| self.offered(&snapshots, e))
            .count();
        let enabled = self.inner.options.builtin_tools + external;
        let limit = self.inner.options.tool_limit;
        let mut warnings = self.inner.config_problems.clone();
        if enabled > limit {
            warnings.push(format!(
                "{enabled} tools are enabled (more than {limit}); models choose less well among many tools — consider turning some off"
            ));
        }
        HubStatus {
            servers,
            enabled_tools: u32::try_from(enabled).unwrap_or(u32::MAX),
            tool_limit: u32::try_from(limit).unwrap_or(u32::MAX),
            warnings,
        }
    }

    /// The tools offered now (enabled tools of connected servers), for a session's
    /// [`ToolSet`](crate::tools::ToolSet). Whether a tool can run is checked again at each call.
    pub fn tools(&self, reserved: &[String]) -> Vec<Arc<dyn AnyTool>> {
        let snapshots = self.snapshots();
        let reserved: Arc<[String]> = reserved.into();
        self.entries(&snapshots, &reserved)
            .into_iter()
            .filter(|e| self.offered(&snapshots, e))
            .map(|e| {
                let timeout = self.call_timeout(e.server);
                let discovered = matches!(
                    self.inner.servers[e.server].config.kind,
                    ServerKind::Discovery(_)
                );
                Arc::new(ExternalTool::new(
                    Arc::new(self.clone()),
                    Arc::clone(&reserved),
                    e.name,
                    e.tool,
                    e.replaces,
                    timeout,
                    discovered,
                )) as Arc<dyn AnyTool>
            })
            .collect()
    }

    fn check(&self, snapshots: &[Snapshot], entry: &Entry) -> Result<Live, ToolError> {
        let server = &self.inner.servers[entry.server];
        let sname = &server.config.name;
        let unavailable = |message: String| ToolError::new(codes::TOOL_UNAVAILABLE, message);
        if !server.enabled() {
            return Err(unavailable(format!(
                "the MCP server `{sname}` is turned off"
            )));
        }
        if !server.tool_enabled(&entry.tool.name) {
            return Err(unavailable(format!(
                "the tool `{}` is turned off",
                entry.name
            )));
        }
        let snap = &snapshots[entry.server];
        match (&snap.live, &snap.state) {
            (Some(live), _) => Ok(live.clone()),
            (None, ServerState::Failed { error, .. }) => Err(unavailable(format!(
                "the MCP server `{sname}` is not running ({error}); it is restarted automatically, try again later"
            ))),
            (None, _) => Err(unavailable(format!(
                "the MCP server `{sname}` is not running yet; try again later"
            ))),
        }
    }

    /// Runs the external tool `name`. A discovered tool's call command runs confined to
    /// `sandbox` (the calling session's, as its `bash` tool would get) when there is one; an MCP
    /// server's tool runs in the server, confined by the server's own setting.
    pub fn call(
        &self,
        reserved: &[String],
        name: &str,
        arguments: Value,
        sandbox: Option<SandboxPolicy>,
        cancel: CancellationToken,
        output: OutputSink,
    ) -> BoxFuture<'static, Result<ToolOutput, ToolError>> {
        let snapshots = self.snapshots();
        let entry = self
            .entries(&snapshots, reserved)
            .into_iter()
            .find(|e| e.name == name);
        let prepared = match entry {
            None => Err(ToolError::new(
                codes::UNKNOWN_TOOL,
                format!("there is no external tool `{name}`"),
            )),
            Some(entry) => self.check(&snapshots, &entry).map(|live| (live, entry)),
        };
        let timeout = match &prepared {
            Ok((_, entry)) => self.call_timeout(entry.server),
            Err(_) => self.inner.options.call_timeout,
        };
        let cwd = self.inner.options.workspace.clone();
        Box::pin(async move {
            let (live, entry) = prepared?;
            match live {
                Live::Mcp(handle) => handle
                    .call(&entry.tool.name, arguments, cancel, output, timeout)
                    .await
                    .map(ToolOutput::text),
                Live::Discovery(d) => {
                    discovery::call(
                        &d,
                        cwd.as_deref(),
                        &entry.tool.name,
                        &arguments,
                        sandbox.as_ref(),
                        cancel,
                        timeout,
                    )
                    .await
                }
            }
        })
    }
}

impl ExternalCalls for McpHub {
    fn call_tool(
        &self,
        reserved: &[String],
        name: &str,
        arguments: Value,
        sandbox: Option<SandboxPolicy>,
        cancel: CancellationToken,
        output: OutputSink,
    ) -> BoxFuture<'static, Result<ToolOutput, ToolError>> {
        self.call(reserved, name, arguments, sandbox, cancel, output)
    }
}
