//! Approvals of workspace servers: a cloned repository must not start programs silently, so a
//! workspace server starts only once the user approved its exact definition (see
//! `Store::approve_mcp_server`). These functions work without a running hub (the CLI's
//! `mcp approve`); [`McpHub::approve`](super::McpHub::approve) does the same for a running one.

use super::config::{McpConfig, ServerSource};
use super::error::McpError;
use crate::store::{Store, StoreError, now_ms};
use foreman_protocol::mcp::PendingServer;

/// The workspace servers of `config` that `store` has no approval for (in their current
/// definition).
pub async fn pending_servers(
    config: &McpConfig,
    store: &Store,
    workspace_key: &str,
) -> Result<Vec<PendingServer>, StoreError> {
    let mut out = Vec::new();
    for s in config
        .servers
        .iter()
        .filter(|s| s.source == ServerSource::Workspace)
    {
        let hash = s.definition_hash();
        if !store
            .is_mcp_server_approved(workspace_key, &s.name, &hash)
            .await?
        {
            out.push(PendingServer {
                name: s.name.clone(),
                target: s.describe(),
                definition_hash: hash,
            });
        }
    }
    Ok(out)
}

/// Records the user's approval of the workspace server `name` as currently defined.
pub async fn approve_server(
    config: &McpConfig,
    store: &Store,
    workspace_key: &str,
    name: &str,
) -> Result<(), McpError> {
    let server = config
        .servers
        .iter()
        .find(|s| s.name == name && s.source == ServerSource::Workspace)
        .ok_or_else(|| McpError::UnknownServer(name.to_owned()))?;
    store
        .approve_mcp_server(workspace_key, name, &server.definition_hash(), now_ms())
        .await?;
    Ok(())
}
