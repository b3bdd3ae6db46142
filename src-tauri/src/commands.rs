//! The commands the UI may call. Each is listed in `build.rs` and allowed in `capabilities/`.

use foreman_core::store::{RecentWorkspace, move_aside, now_ms};
use foreman_core::workspace::WorkspaceDir;
use tauri::{AppHandle, Manager, State, WebviewWindow};
use tauri_plugin_dialog::DialogExt;

use crate::state::{AppState, StoreSlot, database_path, open_store};
use crate::view::{CommandError, StartupView, WorkspaceView};

const RECENT_LIMIT: u32 = 20;

/// Decides the first screen of the calling window: the folder it was opened for if there was
/// one (once), else welcome.
#[tauri::command]
pub async fn startup(
    window: WebviewWindow,
    state: State<'_, AppState>,
) -> Result<StartupView, CommandError> {
    let store = state.store.lock().await;
    let store = match &*store {
        StoreSlot::Open(store) => store,
        StoreSlot::Failed {
            path,
            message,
            corrupt,
        } => {
            return Ok(StartupView::StoreError {
                path: path.display().to_string(),
                message: message.clone(),
                can_move_aside: *corrupt,
            });
        }
    };
    let label = window.label();
    let (launch, shown, session) = {
        let mut windows = state.windows();
        let this = windows.get(label);
        (
            this.launch.take(),
            this.shown.clone(),
            this.shown_session.clone(),
        )
    };
    let mut error = None;
    if launch.is_none() {
        // Not the first page of this window: it was loaded again (its web process ended), so it
        // shows the workspace the window had open, if that is still a folder.
        if let Some(workspace) = shown
            && std::path::Path::new(&workspace.path).is_dir()
        {
            match &session {
                Some(id) => log::info!(
                    "page loaded again: reopening {} and its session {id}",
                    workspace.path
                ),
                None => log::info!("page loaded again: reopening {}", workspace.path),
            }
            crate::windows::set_title(&window, Some(&workspace));
            return Ok(StartupView::Workspace {
                workspace,
                session,
                reloaded: true,
            });
        }
    }
    if let Some(launch) = launch
        && let Some(raw) = launch.workspace
    {
        match WorkspaceDir::resolve(&raw, &launch.cwd) {
            Ok(dir) => {
                let workspace = remember(store, &dir).await?;
                show(&window, &state, &workspace);
                // File → Open Recent after the reply: the menu waits for the main thread.
                let (app, store) = (window.app_handle().clone(), store.clone());
                tauri::async_runtime::spawn(async move {
                    crate::menu::show_recent_from(&app, &store).await;
                });
                log::info!("startup: answered at {} ms", crate::startup_clock::ms());
                return Ok(StartupView::Workspace {
                    workspace,
                    session: None,
                    reloaded: false,
                });
            }
            Err(e) => {
                log::warn!("command-line workspace refused: {e}");
                state.windows().get(label).opening = None;
                error = Some(e.to_string());
            }
        }
    }
    let recent = store.recent_workspaces(RECENT_LIMIT).await?;
    Ok(StartupView::Welcome { recent, error })
}

/// `window` shows `workspace` now, with a new conversation.
fn show(window: &WebviewWindow, state: &AppState, workspace: &WorkspaceView) {
    {
        let mut windows = state.windows();
        let this = windows.get(window.label());
        this.shown = Some(workspace.clone());
        this.shown_session = None;
        this.opening = None;
    }
    crate::windows::set_title(window, Some(workspace));
}

async fn remember(
    store: &foreman_core::store::Store,
    dir: &WorkspaceDir,
) -> Result<WorkspaceView, CommandError> {
    let path = dir.path.display().to_string();
    store.touch_workspace(&path, &dir.name, now_ms()).await?;
    log::info!("opened workspace {path}");
    Ok(WorkspaceView {
        name: dir.name.clone(),
        path,
    })
}

/// Opens a folder as the calling window's workspace, remembering it in the recent list.
#[tauri::command]
pub async fn open_workspace(
    window: WebviewWindow,
    state: State<'_, AppState>,
    path: String,
) -> Result<WorkspaceView, CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/"));
    let dir = WorkspaceDir::resolve(&path, &cwd)?;
    let workspace = match &*state.store.lock().await {
        StoreSlot::Open(store) => remember(store, &dir).await?,
        StoreSlot::Failed { message, .. } => {
            return Err(CommandError {
                message: message.clone(),
            });
        }
    };
    show(&window, &state, &workspace);
    crate::menu::refresh_recent(window.app_handle()).await;
    Ok(workspace)
}

/// Shows the native folder picker. `None` when the user cancels.
#[tauri::command]
pub async fn choose_folder(app: AppHandle) -> Result<Option<String>, CommandError> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Open a workspace folder")
        .pick_folder(move |folder| {
            let _ = tx.send(folder);
        });
    let picked = rx.await.map_err(|_| CommandError {
        message: "The folder picker closed unexpectedly.".into(),
    })?;
    match picked {
        None => Ok(None),
        Some(folder) => {
            let path = folder.into_path()?;
            Ok(Some(path.display().to_string()))
        }
    }
}

#[tauri::command]
pub async fn recent_workspaces(
    state: State<'_, AppState>,
) -> Result<Vec<RecentWorkspace>, CommandError> {
    match &*state.store.lock().await {
        StoreSlot::Open(store) => Ok(store.recent_workspaces(RECENT_LIMIT).await?),
        StoreSlot::Failed { message, .. } => Err(CommandError {
            message: message.clone(),
        }),
    }
}

/// Removes a workspace from the recent list; the folder is untouched.
#[tauri::command]
pub async fn forget_workspace(
    app: AppHandle,
    state: State<'_, AppState>,
    path: String,
) -> Result<Vec<RecentWorkspace>, CommandError> {
    match &*state.store.lock().await {
        StoreSlot::Open(store) => {
            store.forget_workspace(&path).await?;
            crate::menu::show_recent_from(&app, store).await;
            Ok(store.recent_workspaces(RECENT_LIMIT).await?)
        }
        StoreSlot::Failed { message, .. } => Err(CommandError {
            message: message.clone(),
        }),
    }
}

/// Renames a damaged database aside (never deletes it) and opens a fresh one.
#[tauri::command]
pub async fn move_database_aside(
    app: AppHandle,
    window: WebviewWindow,
    state: State<'_, AppState>,
) -> Result<StartupView, CommandError> {
    let path = database_path(&app)?;
    {
        let mut slot = state.store.lock().await;
        if let StoreSlot::Open(_) = &*slot {
            return Err(CommandError {
                message: "The database is open; there is nothing to move.".into(),
            });
        }
        let moved = move_aside(&path)?;
        log::warn!(
            "moved damaged database {} to {}",
            path.display(),
            moved.display()
        );
        *slot = open_store(&path).await;
    }
    startup(window, state).await
}
