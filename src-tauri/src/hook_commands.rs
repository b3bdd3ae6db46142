//! Settings' and the consent prompt's view of a workspace's hooks (`foreman_core::hooks`): the
//! hooks in force with where each comes from and its consent, and the consent itself, pinned by
//! the hash of the set the user was shown. A running session reads the consent at its next
//! hook.

use std::path::PathBuf;

use foreman_core::hooks::{self, HookDirs};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::HooksView;
use tauri::{AppHandle, Manager, State};

use crate::state::{AppState, open_store_ref};
use crate::view::CommandError;

/// The folders the hooks of `workspace` come from, and the key its consents are kept under.
fn dirs_of(app: &AppHandle, workspace: &str) -> Result<(HookDirs, String), CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let dir = WorkspaceDir::resolve(workspace, &cwd)?;
    let key = dir.path.display().to_string();
    Ok((HookDirs::new(dir.path, app.path().app_config_dir().ok()), key))
}

/// The hooks in force for `workspace`, what could not be read, and the hash a consent pins.
#[tauri::command]
pub async fn hooks_view(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
) -> Result<HooksView, CommandError> {
    let (dirs, key) = dirs_of(&app, &workspace)?;
    let store = open_store_ref(&state).await?;
    Ok(hooks::view(&dirs, Some(&store), &key).await)
}

/// Allows the workspace's hooks as `hash` pins them; refused when they changed since.
#[tauri::command]
pub async fn consent_hooks(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
    hash: String,
) -> Result<(), CommandError> {
    let (dirs, key) = dirs_of(&app, &workspace)?;
    let store = open_store_ref(&state).await?;
    hooks::consent(&dirs, &store, &key, &hash).await?;
    log::info!("hooks allowed for {key}");
    Ok(())
}
