//! MCP in the CLI: the configuration files, starting the hub for `exec` (its discovery command
//! confined as `exec`'s commands are: `--sandbox`, `--allow-network`, the hidden paths), and
//! `foreman-cli mcp`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use foreman_core::builtin_tools::builtin_names;
use foreman_core::mcp::{
    HubOptions, HubSandbox, McpConfig, McpHub, ServerState, approve_server, pending_servers,
};
use foreman_core::store::Store;
use foreman_core::workspace::WorkspaceDir;

use crate::args::McpCommand;

/// How long `exec` waits for servers to start before the session takes its tool list.
const START_WAIT: Duration = Duration::from_secs(30);

/// The user's MCP file of the desktop app: `$XDG_CONFIG_HOME/dev.foreman.app/mcp.json`.
pub fn default_user_config() -> Option<PathBuf> {
    crate::app_config_dir().map(|dir| dir.join("mcp.json"))
}

/// Loads the user's file (`explicit`, else the app's file when it exists) and the workspace's.
pub fn load_config(explicit: Option<&Path>, workspace: &Path) -> Result<McpConfig, String> {
    let user = match explicit {
        Some(path) if !path.is_file() => {
            return Err(format!(
                "the MCP configuration {} does not exist",
                path.display()
            ));
        }
        Some(path) => Some(path.to_path_buf()),
        None => default_user_config().filter(|p| p.is_file()),
    };
    McpConfig::load(user.as_deref(), Some(workspace)).map_err(|e| e.to_string())
}

/// The message for a workspace server that will not start.
fn refusal(workspace: &Path, name: &str, target: &str) -> String {
    format!(
        "the workspace MCP server `{name}` ({target}) is not approved and was not started; approve it with `foreman-cli mcp approve --workspace {} {name}`, or pass --trust-workspace-mcp",
        workspace.display()
    )
}

/// Starts the hub for `exec` and returns the session's tools, or `None` without any server.
/// Unapproved workspace servers are refused with a message on stderr unless `trust` is set.
/// The configuration's problems are the session's to tell (`config_warning`).
/// `sandbox`: the session's, for the discovery command.
pub async fn session_tools(
    config: McpConfig,
    store: &Store,
    (workspace, approvals_for): (&Path, &Path),
    trust: bool,
    sandbox: HubSandbox,
) -> Result<Option<McpHub>, String> {
    if config.servers.is_empty() {
        return Ok(None);
    }
    let key = approvals_for.display().to_string();
    if !trust {
        for p in pending_servers(&config, store, &key)
            .await
            .map_err(|e| e.to_string())?
        {
            eprintln!(
                "foreman-cli: {}",
                refusal(approvals_for, &p.name, &p.target)
            );
        }
    }
    let options = HubOptions {
        workspace: Some(workspace.to_path_buf()),
        approvals_for: Some(approvals_for.to_path_buf()),
        store: Some(store.clone()),
        trust_workspace: trust,
        builtin_tools: builtin_names().len(),
        sandbox,
        ..HubOptions::default()
    };
    let hub = McpHub::start(config, options)
        .await
        .map_err(|e| e.to_string())?;
    hub.wait_settled(START_WAIT).await;
    for server in hub.status(&builtin_names()).servers {
        if let ServerState::Failed { error, stderr_tail } = &server.state {
            eprintln!(
                "foreman-cli: the MCP server `{}` failed: {error}{}",
                server.name,
                if stderr_tail.is_empty() {
                    String::new()
                } else {
                    format!("\n{stderr_tail}")
                }
            );
        }
    }
    Ok(Some(hub))
}

/// `foreman-cli mcp list|approve ...`.
pub async fn command(command: McpCommand) -> Result<(), String> {
    let (options, names) = match command {
        McpCommand::List(options) => (options, None),
        McpCommand::Approve { options, names } => (options, Some(names)),
    };
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let ws = WorkspaceDir::resolve(&options.store.workspace, &cwd).map_err(|e| e.to_string())?;
    let config = load_config(options.config.as_deref(), &ws.path)?;
    let db = match options.store.db {
        Some(db) => db,
        None => crate::default_database()?,
    };
    let store = Store::open(&db).await.map_err(|e| e.to_string())?;
    let key = ws.path.display().to_string();
    let sandbox = HubSandbox {
        level: options.sandbox,
        network: options.allow_network,
        hidden: crate::hidden::paths(&db, &[])?,
    };
    let result = match names {
        Some(names) => approve(&config, &store, &key, &names).await,
        None => list(config, &store, &ws.path, sandbox).await,
    };
    store.close().await;
    result
}

async fn approve(
    config: &McpConfig,
    store: &Store,
    key: &str,
    names: &[String],
) -> Result<(), String> {
    for name in names {
        approve_server(config, store, key, name)
            .await
            .map_err(|e| e.to_string())?;
        println!("approved the workspace MCP server `{name}`");
    }
    Ok(())
}

/// Starts every approved server, prints one JSON line per server, and stops them.
async fn list(
    config: McpConfig,
    store: &Store,
    workspace: &Path,
    sandbox: HubSandbox,
) -> Result<(), String> {
    let options = HubOptions {
        workspace: Some(workspace.to_path_buf()),
        store: Some(store.clone()),
        sandbox,
        ..HubOptions::default()
    };
    let hub = McpHub::start(config, options)
        .await
        .map_err(|e| e.to_string())?;
    hub.wait_settled(START_WAIT).await;
    let status = hub.status(&[]);
    for server in &status.servers {
        let line = serde_json::to_string(server).map_err(|e| e.to_string())?;
        println!("{line}");
    }
    for warning in &status.warnings {
        eprintln!("foreman-cli: {warning}");
    }
    hub.shutdown().await;
    Ok(())
}
