//! What can go wrong when the user acts on the hub (turn a server on, approve it…).

use crate::store::StoreError;

/// Why a hub operation failed.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    #[error("there is no MCP server `{0}`")]
    UnknownServer(String),
    #[error("the server `{server}` has no tool `{tool}`")]
    UnknownTool { server: String, tool: String },
    #[error("approving `{0}` needs the database, and the hub has none")]
    NoStore(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a server is not running (it is restarted after a back-off).
#[derive(Debug, thiserror::Error)]
pub enum ServerDown {
    #[error(transparent)]
    Discovery(#[from] super::discovery::DiscoveryError),
    #[error(transparent)]
    Connect(#[from] super::client::ConnectError),
    #[error(transparent)]
    Confine(#[from] super::confinement::ConfineError),
    /// A confined server failed or stopped: said with its sandbox, so that a refusal can be
    /// told from an ordinary crash. `detail`: its stderr's last words and the error.
    #[error(
        "the server {when} in the sandbox ({sandbox}): {detail}. It may need more than the \
         sandbox allows: {remedy}"
    )]
    InSandbox {
        when: &'static str,
        sandbox: String,
        detail: String,
        remedy: &'static str,
    },
    #[error("the server stopped ({0})")]
    Stopped(String),
    #[error("the server connection ended: {0}")]
    Ended(#[source] tokio::task::JoinError),
}
