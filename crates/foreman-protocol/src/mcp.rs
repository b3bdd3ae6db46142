//! What the MCP hub reports to the user: servers, their state and tools, how the programs it
//! starts are confined, and warnings.

use serde::Serialize;
use ts_rs::TS;

use crate::sandbox::SandboxLevel;

/// Where a server was configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ServerSource {
    /// The user's own configuration file.
    User,
    /// The workspace's `.foreman/mcp.json`: needs the user's approval before it starts.
    Workspace,
}

/// The state of one server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ServerState {
    /// Being started or reconnected.
    Starting,
    /// Running, offering `tools` tools.
    Connected { tools: u32 },
    /// Not running; it is restarted with backoff. `stderr_tail` is the end of its stderr.
    Failed { error: String, stderr_tail: String },
    /// Turned off in the configuration or by the user.
    Disabled,
    /// A workspace server that the user has not approved (in this exact definition).
    AwaitingApproval,
}

/// One tool of a server (`McpToolStatus` in TypeScript: the tool system has a `ToolStatus`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "McpToolStatus")]
pub struct ToolStatus {
    /// The name the model sees (`server__tool`).
    pub name: String,
    /// The name the server knows.
    pub server_tool: String,
    pub description: String,
    pub enabled: bool,
    pub read_only: bool,
    pub destructive: bool,
    /// The built-in tool it stands in for (`"replaces"` in the configuration).
    pub replaces: Option<String>,
}

/// How a program the hub starts is confined: a stdio server's own `"sandbox"` and
/// `"sandboxNetwork"` in `mcp.json`, or for the discovery command the sandbox of the sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct ServerSandbox {
    /// `off`: it runs with the user's full rights.
    pub level: SandboxLevel,
    /// Whether it may reach the network (it always can at `off`).
    pub network: bool,
}

impl ServerSandbox {
    /// Unconfined: a stdio server's default.
    pub const OFF: Self = Self {
        level: SandboxLevel::Off,
        network: false,
    };

    /// Whether it runs confined.
    pub fn confines(&self) -> bool {
        self.level != SandboxLevel::Off
    }

    /// `workspace-write, no network`, for messages.
    pub fn describe(&self) -> String {
        let network = match self.network {
            true => "network allowed",
            false => "no network",
        };
        format!("{}, {network}", self.level.as_str())
    }
}

/// One server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ServerStatus {
    pub name: String,
    pub source: ServerSource,
    /// The command line or URL.
    pub target: String,
    pub state: ServerState,
    /// Its tools (the last known list while it is down).
    pub tools: Vec<ToolStatus>,
    /// Declarations of a discovery command that were skipped, and why.
    pub problems: Vec<String>,
    /// The process id of a stdio server while it runs.
    pub pid: Option<u32>,
    /// How long one of its tool calls may take: its `"timeout"`, or the default.
    pub call_timeout_secs: u32,
    /// How the program it runs is confined (`None` for a URL server, which runs elsewhere).
    pub sandbox: Option<ServerSandbox>,
}

/// Everything, for a settings panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct HubStatus {
    pub servers: Vec<ServerStatus>,
    /// Tools the model is offered: built-ins plus enabled tools of connected servers.
    pub enabled_tools: u32,
    pub tool_limit: u32,
    /// Configuration problems and the too-many-tools warning.
    pub warnings: Vec<String>,
}

/// A workspace server waiting for the user's approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PendingServer {
    pub name: String,
    /// The command line or URL that would run.
    pub target: String,
    /// The definition hash the approval is recorded for.
    pub definition_hash: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::assert_bindings_current;

    #[test]
    fn status_bindings_are_current() {
        assert_bindings_current::<HubStatus>();
        assert_bindings_current::<ServerStatus>();
        assert_bindings_current::<ServerState>();
        assert_bindings_current::<ToolStatus>();
        assert_bindings_current::<ServerSource>();
        assert_bindings_current::<ServerSandbox>();
    }

    #[test]
    fn a_sandbox_is_described_with_its_network() {
        let confined = ServerSandbox {
            level: SandboxLevel::WorkspaceWrite,
            network: false,
        };
        assert!(confined.confines());
        assert_eq!(confined.describe(), "workspace-write, no network");
        let open = ServerSandbox {
            level: SandboxLevel::ReadOnly,
            network: true,
        };
        assert_eq!(open.describe(), "read-only, network allowed");
        assert!(!ServerSandbox::OFF.confines());
    }
}
