//! The commands the UI may call. Each is listed in `build.rs` and allowed in `capabilities/`.

use foreman_core::store::{RecentWorkspace, Store, now_ms};
use foreman_core::workspace::WorkspaceDir;
use tauri::{AppHandle, Manager, State, WebviewWindow};
use tauri_plugin_dialog::DialogExt;

use crate::launch::LaunchRequest;
use crate::state::{AppState, StoreSlot, open_store_ref};
use crate::view::{CommandError, StartupView, WorkspaceView};

const RECENT_LIMIT: u32 = 20;

/// Decides the first screen of the calling window: the folder it was opened for if there was
/// one (once), else welcome.
#[tauri::command]
pub async fn startup(
    window: WebviewWindow,
    state: State<'_, AppState>,
) -> Result<StartupView, CommandError> {
    let store = match store_or_screen(&state).await {
        Ok(store) => store,
        Err(screen) => return Ok(screen),
    };
    match first_page(&window, &state) {
        FirstPage::Reloaded(screen) => Ok(screen),
        FirstPage::Launched(launch) => launched(&window, &state, &store, launch).await,
    }
}

/// The open store, or the screen that says why it could not be opened.
async fn store_or_screen(state: &AppState) -> Result<Store, StartupView> {
    match &*state.store.lock().await {
        StoreSlot::Open(store) => Ok(store.clone()),
        StoreSlot::Failed {
            path,
            message,
            corrupt,
        } => Err(StartupView::StoreError {
            path: path.display().to_string(),
            message: message.clone(),
            can_move_aside: *corrupt,
        }),
    }
}

/// What the window's page is: loaded again, showing what it showed; or its first, with the
/// command line it was opened for (taken once).
enum FirstPage {
    Reloaded(StartupView),
    Launched(Option<LaunchRequest>),
}

fn first_page(window: &WebviewWindow, state: &AppState) -> FirstPage {
    let (launch, shown, session) = {
        let mut windows = state.windows();
        let this = windows.get(window.label());
        (
            this.launch.take(),
            this.shown.clone(),
            this.shown_session.clone(),
        )
    };
    if launch.is_some() {
        return FirstPage::Launched(launch);
    }
    // Not the first page of this window: it was loaded again (its web process ended), so it
    // shows the workspace the window had open, if that is still a folder.
    let Some(workspace) = shown.filter(|w| std::path::Path::new(&w.path).is_dir()) else {
        return FirstPage::Launched(None);
    };
    match &session {
        Some(id) => log::info!(
            "page loaded again: reopening {} and its session {id}",
            workspace.path
        ),
        None => log::info!("page loaded again: reopening {}", workspace.path),
    }
    crate::windows::set_title(window, Some(&workspace));
    FirstPage::Reloaded(StartupView::Workspace {
        workspace,
        session,
        reloaded: true,
    })
}

/// The first screen of a window opened for `launch`: its folder, or welcome (with why the
/// folder could not be opened).
async fn launched(
    window: &WebviewWindow,
    state: &AppState,
    store: &Store,
    launch: Option<LaunchRequest>,
) -> Result<StartupView, CommandError> {
    let mut error = None;
    if let Some(launch) = launch
        && let Some(raw) = launch.workspace
    {
        match WorkspaceDir::resolve(&raw, &launch.cwd) {
            Ok(dir) => {
                let workspace = remember(store, &dir).await?;
                show(window, state, &workspace);
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
                state.windows().get(window.label()).opening = None;
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
    let workspace = remember(&open_store_ref(&state).await?, &dir).await?;
    show(&window, &state, &workspace);
    crate::menu::refresh_recent(window.app_handle()).await;
    Ok(workspace)
}

/// Shows the native folder picker. `None` when the user cancels.
#[tauri::command]
pub async fn choose_folder(app: AppHandle) -> Result<Option<String>, CommandError> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let dialog = app.dialog().file().set_title("Open a workspace folder");
    dialog.pick_folder(move |folder| {
        let _ = tx.send(folder);
    });
    let picked = rx
        .await
        .map_err(|_| CommandError::new("The folder picker closed unexpectedly."))?;
    let path = picked.map(|folder| folder.into_path()).transpose()?;
    Ok(path.map(|path| path.display().to_string()))
}

#[tauri::command]
pub async fn recent_workspaces(
    state: State<'_, AppState>,
) -> Result<Vec<RecentWorkspace>, CommandError> {
    let store = open_store_ref(&state).await?;
    Ok(store.recent_workspaces(RECENT_LIMIT).await?)
}

/// Removes a workspace from the recent list; the folder is untouched.
#[tauri::command]
pub async fn forget_workspace(
    app: AppHandle,
    state: State<'_, AppState>,
    path: String,
) -> Result<Vec<RecentWorkspace>, CommandError> {
    let store = open_store_ref(&state).await?;
    store.forget_workspace(&path).await?;
    crate::menu::show_recent_from(&app, &store).await;
    Ok(store.recent_workspaces(RECENT_LIMIT).await?)
}

/// Renames a damaged database aside (never deletes it) and opens a fresh one.
#[tauri::command]
pub async fn move_database_aside(
    app: AppHandle,
    window: WebviewWindow,
    state: State<'_, AppState>,
) -> Result<StartupView, CommandError> {
    crate::state::move_aside_and_reopen(&app, &state).await?;
    startup(window, state).await
}
