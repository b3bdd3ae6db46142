//! External agents over ACP: the list New task and Settings › Agents show (the presets and
//! `agents.json` in the app's config folder), and the agent a stored session is run by.

use std::path::PathBuf;

use foreman_core::acp::AgentSpec;
use foreman_core::acp::agents_file::{self, AGENTS_FILE};
use foreman_core::store::Store;
use foreman_protocol::AgentInfo;
use tauri::{AppHandle, Manager};

use crate::view::CommandError;

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// The agents of `agents.json` (none when there is no file).
fn configured(app: &AppHandle) -> Result<Vec<AgentSpec>, CommandError> {
    let Ok(dir) = app.path().app_config_dir() else {
        return Ok(Vec::new());
    };
    agents_file::read(&dir.join(AGENTS_FILE), home().as_deref())
        .map_err(|e| CommandError::new(e.to_string()))
}

/// The external agent that runs session `id` (`None`: Foreman's own).
pub async fn of_session(
    app: &AppHandle,
    store: &Store,
    id: &str,
) -> Result<Option<AgentSpec>, CommandError> {
    let Some((name, _)) = store.session_agent(id).await? else {
        return Ok(None);
    };
    agents_file::find(&name, &configured(app)?, home().as_deref())
        .map(Some)
        .ok_or_else(|| {
            CommandError::new(format!(
                "This session was run by the agent “{name}”, which is no longer in agents.json."
            ))
        })
}

/// Every agent a session or a task can be given, installed or not.
#[tauri::command]
pub fn list_agents(app: AppHandle) -> Result<Vec<AgentInfo>, CommandError> {
    let path = std::env::var_os("PATH");
    Ok(agents_file::listing(&configured(&app)?, path.as_deref()))
}
