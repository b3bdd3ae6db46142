//! Commands of the MCP panel in settings: the servers of a workspace with their state and tools,
//! approving a workspace server, restarting, turning servers and tools on and off, and editing
//! the user's `mcp.json`.

use std::path::PathBuf;

use foreman_core::builtin_tools::builtin_names;
use foreman_core::mcp::{HubStatus, McpHub};
use foreman_core::workspace::WorkspaceDir;
use serde::Serialize;
use tauri::{AppHandle, State};
use ts_rs::TS;

use crate::mcp::{user_file, workspace_file};
use crate::state::{AppState, open_store_ref};
use crate::view::CommandError;

/// The MCP panel's data.
#[derive(Debug, Clone, Serialize, TS)]
pub struct McpView {
    pub status: HubStatus,
    /// The user's configuration file and its text (empty when it does not exist yet).
    pub user_file: String,
    pub user_text: String,
    /// The workspace's configuration file (edited in the project, not here).
    pub workspace_file: String,
}

fn resolve(workspace: &str) -> Result<PathBuf, CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    Ok(WorkspaceDir::resolve(workspace, &cwd)?.path)
}

/// The hub of `workspace` (started on first use) and the workspace root.
async fn hub_of(
    app: &AppHandle,
    state: &AppState,
    workspace: &str,
) -> Result<(PathBuf, McpHub), CommandError> {
    let root = resolve(workspace)?;
    let store = open_store_ref(state).await?;
    let hub = state.mcp.hub_for(app, &store, &root).await?;
    Ok((root, hub))
}

async fn view(app: &AppHandle, state: &AppState, workspace: &str) -> Result<McpView, CommandError> {
    let (root, hub) = hub_of(app, state, workspace).await?;
    hub.wait_settled(std::time::Duration::from_secs(3)).await;
    let file = user_file(app)?;
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    Ok(McpView {
        status: hub.status(&builtin_names()),
        user_file: file.display().to_string(),
        user_text: text,
        workspace_file: workspace_file(&root).display().to_string(),
    })
}

#[tauri::command]
pub async fn mcp_status(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
) -> Result<McpView, CommandError> {
    view(&app, &state, &workspace).await
}

/// Approves a workspace server (this exact definition) and starts it.
#[tauri::command]
pub async fn mcp_approve(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
    server: String,
) -> Result<McpView, CommandError> {
    let (root, hub) = hub_of(&app, &state, &workspace).await?;
    hub.approve(&server).await?;
    log::info!("MCP server {server} approved for {}", root.display());
    view(&app, &state, &workspace).await
}

#[tauri::command]
pub async fn mcp_restart(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
    server: String,
) -> Result<McpView, CommandError> {
    hub_of(&app, &state, &workspace).await?.1.restart(&server)?;
    view(&app, &state, &workspace).await
}

/// Turns a server (`tool` absent) or one of its tools on or off.
#[tauri::command]
pub async fn mcp_set_enabled(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
    server: String,
    tool: Option<String>,
    enabled: bool,
) -> Result<McpView, CommandError> {
    let (_, hub) = hub_of(&app, &state, &workspace).await?;
    set_enabled(&hub, &server, tool.as_deref(), enabled)?;
    view(&app, &state, &workspace).await
}

/// Turns `server` (`tool`: one of its tools) on or off.
fn set_enabled(
    hub: &McpHub,
    server: &str,
    tool: Option<&str>,
    enabled: bool,
) -> Result<(), CommandError> {
    match tool {
        Some(tool) => hub.set_tool_enabled(server, tool, enabled)?,
        None => hub.set_server_enabled(server, enabled)?,
    }
    Ok(())
}

/// Saves the user's `mcp.json` (checked first: a file that does not parse is refused and the
/// old one kept) and restarts the workspace's servers with it.
#[tauri::command]
pub async fn mcp_save_user_config(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
    text: String,
) -> Result<McpView, CommandError> {
    crate::mcp::save_user_file(&app, &text)?;
    state.mcp.reload(&resolve(&workspace)?).await;
    view(&app, &state, &workspace).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_up_to_date() {
        foreman_protocol::bindings::assert_bindings_current::<McpView>();
        foreman_protocol::bindings::assert_bindings_current::<HubStatus>();
        foreman_protocol::bindings::assert_bindings_current::<foreman_core::mcp::ServerStatus>();
        foreman_protocol::bindings::assert_bindings_current::<foreman_core::mcp::ServerState>();
        foreman_protocol::bindings::assert_bindings_current::<foreman_core::mcp::ToolStatus>();
        foreman_protocol::bindings::assert_bindings_current::<foreman_core::mcp::ServerSource>();
    }
}
