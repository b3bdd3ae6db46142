//! External tools: MCP servers (through the official `rmcp` SDK) and a discovery command.
//!
//! - [`config`]: the `mcpServers` / `discovery` files of the user and of the workspace.
//! - [`hub`]: [`McpHub`] runs the servers (a supervisor task each: start, notice a crash,
//!   restart with backoff), names their tools, reports status, and records approvals of
//!   workspace servers.
//! - [`approvals`]: which workspace servers the user approved.
//! - [`external`]: [`ExternalTool`](external::ExternalTool), an external tool in the session's
//!   one tool runtime; a server's `"replaces": ["bash"]` lets its tool of that name stand in
//!   for the built-in.
//! - [`client`], [`discovery`]: talking to one MCP server / running discovered tools.
//! - [`confinement`]: the sandbox of what the hub starts: a stdio server's own `"sandbox"` (off
//!   by default), the discovery command at the sessions' `bash` level.
//! - [`result`], [`naming`], [`tool`], [`stderr_tail`], [`status`]: the small pieces.

pub mod approvals;
pub mod client;
pub mod config;
pub mod confinement;
pub mod discovery;
pub mod error;
pub mod external;
pub mod hub;
pub mod naming;
pub mod result;
pub mod server;
pub mod stderr_tail;
pub mod tool;

pub use approvals::{approve_server, pending_servers};
pub use config::{
    ConfigError, McpConfig, ServerConfig, ServerKind, ServerSandbox, ServerSource, WORKSPACE_CONFIG,
};
pub use confinement::HubSandbox;
pub use foreman_protocol::mcp::{HubStatus, PendingServer, ServerState, ServerStatus, ToolStatus};
pub use hub::{DEFAULT_CALL_TIMEOUT, DEFAULT_TOOL_LIMIT, HubOptions, McpError, McpHub};
pub use server::Backoff;
