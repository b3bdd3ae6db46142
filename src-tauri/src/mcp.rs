//! MCP servers in the app: one hub per open workspace, started from the user's file
//! (`mcp.json` in the app's config directory) and the workspace's `.foreman/mcp.json`. Workspace
//! servers wait for the user's approval before they ever start. Sessions get the hub's tools
//! through `CompositeBackend`, with the same cards and approvals as the built-ins. The hub's
//! discovery command runs in the sandbox of Settings; a hub started with other sandbox settings
//! is started again with the current ones.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use foreman_core::mcp::{HubOptions, HubSandbox, McpConfig, McpHub, ServerSource};
use foreman_core::store::Store;
use tauri::{AppHandle, Manager};

use crate::view::CommandError;

const USER_FILE: &str = "mcp.json";

/// The user's MCP configuration file.
pub fn user_file(app: &AppHandle) -> Result<PathBuf, CommandError> {
    app.path()
        .app_config_dir()
        .map(|dir| dir.join(USER_FILE))
        .map_err(|e| CommandError {
            message: format!("Cannot find the app config directory: {e}"),
        })
}

/// Saves `text` as the user's MCP configuration file, checked first: a file that does not
/// parse is refused and the old one kept. Written atomically (a temporary file renamed over).
pub fn save_user_file(app: &AppHandle, text: &str) -> Result<(), CommandError> {
    let file = user_file(app)?;
    let parsed = McpConfig::parse(text, ServerSource::User, &file)?;
    if let Some(problem) = parsed.problems.first() {
        return Err(CommandError::new(format!("Not saved: {problem}")));
    }
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let temp = file.with_extension("json.tmp");
    std::fs::write(&temp, text)?;
    std::fs::rename(&temp, &file)?;
    Ok(())
}

/// The workspace's MCP configuration file.
pub fn workspace_file(workspace: &Path) -> PathBuf {
    workspace.join(".foreman").join("mcp.json")
}

/// The running hubs, by workspace path, with the sandbox settings each was started with.
#[derive(Default)]
pub struct McpHubs {
    hubs: tokio::sync::Mutex<HashMap<PathBuf, (McpHub, HubSandbox)>>,
}

/// The sandbox of Settings, for the hub's discovery command and confined servers.
fn sandbox(app: &AppHandle) -> Result<HubSandbox, CommandError> {
    let settings = crate::settings::load(&crate::settings::settings_path(app)?)?;
    Ok(HubSandbox {
        level: settings.sandbox,
        network: settings.sandbox_network,
        hidden: crate::settings::hidden_paths(app, &settings),
    })
}

impl McpHubs {
    /// The hub of `workspace`, started on first use and again when the sandbox settings changed.
    pub async fn hub_for(
        &self,
        app: &AppHandle,
        store: &Store,
        workspace: &Path,
    ) -> Result<McpHub, CommandError> {
        self.hub_in(app, store, workspace, workspace).await
    }

    /// The hub whose servers run in `workspace` (a task's worktree) with the approvals of
    /// `approvals_for` (the folder the user opened).
    pub async fn hub_in(
        &self,
        app: &AppHandle,
        store: &Store,
        workspace: &Path,
        approvals_for: &Path,
    ) -> Result<McpHub, CommandError> {
        let sandbox = sandbox(app)?;
        let mut hubs = self.hubs.lock().await;
        match hubs.remove(workspace) {
            Some((hub, started)) if started == sandbox => {
                hubs.insert(workspace.to_path_buf(), (hub.clone(), started));
                return Ok(hub);
            }
            Some((old, _)) => old.shutdown().await,
            None => {}
        }
        let user = user_file(app)?;
        let config = McpConfig::load(Some(&user), Some(workspace))?;
        for problem in &config.problems {
            log::warn!("MCP configuration: {problem}");
        }
        let options = HubOptions {
            workspace: Some(workspace.to_path_buf()),
            approvals_for: Some(approvals_for.to_path_buf()),
            store: Some(store.clone()),
            sandbox: sandbox.clone(),
            ..HubOptions::default()
        };
        let hub = McpHub::start(config, options).await?;
        hubs.insert(workspace.to_path_buf(), (hub.clone(), sandbox));
        Ok(hub)
    }

    /// Stops the hub of `workspace` (it starts again, with the files re-read, on next use).
    pub async fn reload(&self, workspace: &Path) {
        let hub = self.hubs.lock().await.remove(workspace);
        if let Some((hub, _)) = hub {
            hub.shutdown().await;
        }
    }

    /// The folders whose hubs run.
    pub async fn folders(&self) -> Vec<PathBuf> {
        self.hubs.lock().await.keys().cloned().collect()
    }

    /// Stops every server (the app is closing).
    pub async fn shutdown_all(&self) {
        let hubs: Vec<McpHub> = self
            .hubs
            .lock()
            .await
            .drain()
            .map(|(_, (h, _))| h)
            .collect();
        for hub in hubs {
            hub.shutdown().await;
        }
    }
}

/// How long a new session waits for servers that are still starting.
pub const SETTLE: Duration = Duration::from_secs(10);
