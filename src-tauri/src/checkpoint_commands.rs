//! The settings screen's view of a workspace's checkpoints: how much disk they take, and
//! clearing them (a rewind then has nothing to go back to; the files are not touched).

use std::path::PathBuf;

use foreman_core::checkpoints::Checkpoints;
use tauri::{AppHandle, State};

use crate::state::{AppState, open_store_ref, state_data_dir};
use crate::view::CommandError;

fn where_they_are(app: &AppHandle, workspace: &str) -> Result<(PathBuf, PathBuf), CommandError> {
    let dir = state_data_dir(app)?.join("checkpoints");
    // Keyed by the workspace's real path, as the engine opens it.
    let root = std::fs::canonicalize(workspace).unwrap_or_else(|_| PathBuf::from(workspace));
    Ok((dir, root))
}

/// The bytes `workspace`'s checkpoints take on disk.
#[tauri::command]
pub async fn checkpoints_usage(app: AppHandle, workspace: String) -> Result<u64, CommandError> {
    let (dir, root) = where_they_are(&app, &workspace)?;
    tokio::task::spawn_blocking(move || Checkpoints::usage_of(&dir, &root))
        .await
        .map_err(|e| CommandError::new(e.to_string()))
}

/// Deletes `workspace`'s checkpoints; the bytes freed.
#[tauri::command]
pub async fn clear_checkpoints(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
) -> Result<u64, CommandError> {
    let freed = clear(&app, &workspace).await?;
    let store = open_store_ref(&state).await?;
    store.forget_workspace_checkpoints(&workspace).await?;
    log::info!("cleared the checkpoints of {workspace} ({freed} bytes)");
    Ok(freed)
}

/// Deletes the checkpoint repository of `workspace`, off the async runtime; the bytes freed.
async fn clear(app: &AppHandle, workspace: &str) -> Result<u64, CommandError> {
    let (dir, root) = where_they_are(app, workspace)?;
    tokio::task::spawn_blocking(move || Checkpoints::clear(&dir, &root))
        .await
        .map_err(|e| CommandError::new(e.to_string()))?
        .map_err(|e| CommandError::new(format!("Could not clear the checkpoints: {e}")))
}
