//! Settings' and the composer's view of what a workspace brings for its agents: its hooks
//! (`foreman_core::hooks`) in force with where each comes from and its consent, the consent
//! itself, pinned by the hash of the set the user was shown (a running session reads it at its
//! next hook), and the `/` menu's catalog of commands and skills (`foreman_core::slash`).

use std::path::PathBuf;

use foreman_core::hooks::{self, HookDirs};
use foreman_core::slash::{self, SlashDirs};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::{HooksView, SlashCatalog};
use tauri::{AppHandle, Manager, State};

use crate::state::{AppState, open_store_ref};
use crate::view::CommandError;

/// The folder of `workspace`, as its sessions resolve it.
fn folder_of(workspace: &str) -> Result<PathBuf, CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    Ok(WorkspaceDir::resolve(workspace, &cwd)?.path)
}

/// The folders the hooks of `workspace` come from, and the key its consents are kept under.
fn dirs_of(app: &AppHandle, workspace: &str) -> Result<(HookDirs, String), CommandError> {
    let folder = folder_of(workspace)?;
    let key = folder.display().to_string();
    Ok((
        HookDirs::for_user(folder, app.path().app_config_dir().ok()),
        key,
    ))
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

/// The `/` menu for `workspace`: the built-ins, its commands and skills and the user's, and the
/// files that could not be read.
#[tauri::command]
pub async fn slash_catalog(
    app: AppHandle,
    workspace: String,
) -> Result<SlashCatalog, CommandError> {
    let dirs = SlashDirs::for_user(folder_of(&workspace)?, app.path().app_config_dir().ok());
    tokio::task::spawn_blocking(move || slash::catalog(&dirs))
        .await
        .map_err(|e| CommandError::new(e.to_string()))
}
