//! Settings' view of the instruction files a workspace's sessions follow: the user's own
//! `AGENTS.md` in the app's config directory, the workspace root's rule file and the nested ones
//! (`foreman_core::project_rules`).

use std::path::PathBuf;

use foreman_core::project_rules::rule_files_in_force;
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::RuleFilesView;
use tauri::{AppHandle, Manager};

use crate::view::CommandError;

/// The user's own rule file: `AGENTS.md` in the app's config directory, beside the settings.
pub(crate) fn user_rules_path(app: &AppHandle) -> Result<PathBuf, CommandError> {
    app.path()
        .app_config_dir()
        .map(|dir| dir.join(foreman_core::agent::USER_RULES_FILE))
        .map_err(|e| CommandError::new(format!("Cannot find the app config directory: {e}")))
}

/// The rule files in force for `workspace`, the user's first, and where the user's file goes.
#[tauri::command]
pub async fn rule_files(app: AppHandle, workspace: String) -> Result<RuleFilesView, CommandError> {
    let user = user_rules_path(&app)?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let dir = WorkspaceDir::resolve(&workspace, &cwd)?;
    let user_file = user.display().to_string();
    let files = tokio::task::spawn_blocking(move || rule_files_in_force(&dir.path, Some(&user)))
        .await
        .map_err(|e| CommandError::new(e.to_string()))?;
    Ok(RuleFilesView { files, user_file })
}
