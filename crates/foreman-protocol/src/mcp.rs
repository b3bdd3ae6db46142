//! What the MCP hub reports to the user: servers, their state and tools, and warnings.

use serde::Serialize;
use ts_rs::TS;

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
    }
}
