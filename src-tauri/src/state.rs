//! The app's shared state: the store (or why it could not be opened), what each window shows,
//! the running sessions and the MCP hubs.

use std::path::PathBuf;
use std::sync::Arc;

use foreman_core::store::{DATABASE_FILE, Store, StoreError};
use tauri::{AppHandle, Manager};
use tokio::sync::Mutex;

use crate::bridge::SessionHub;
use crate::launch::LaunchRequest;
use crate::mcp::McpHubs;
use crate::view::CommandError;
use crate::window_state::{FIRST_WINDOW, Windows};

pub struct AppState {
    /// Locked while it opens (`load`).
    pub store: Arc<Mutex<StoreSlot>>,
    /// Each window's launch request, workspace and session, by window label.
    windows: std::sync::Mutex<Windows>,
    pub sessions: SessionHub,
    pub mcp: McpHubs,
    /// The engine's tasks, made once the store is open.
    tasks: std::sync::Mutex<Option<foreman_core::tasks::Tasks>>,
    /// Tasks whose session waits for a free slot or for its folder, with why.
    queued: std::sync::Mutex<std::collections::HashMap<String, String>>,
}

/// The store, or the error that kept it closed (shown on the error screen).
pub enum StoreSlot {
    Open(Store),
    Failed {
        path: PathBuf,
        message: String,
        corrupt: bool,
    },
}

impl AppState {
    /// The app's state, at once: the store opens (and migrates) in the background, so the
    /// window's web process starts meanwhile instead of waiting for it. Its lock is held until
    /// it is open, so a command that needs the store waits for it.
    pub fn load(app: &AppHandle, launch: LaunchRequest) -> Self {
        let store = Arc::new(Mutex::new(StoreSlot::Failed {
            path: PathBuf::new(),
            message: "The database is still opening.".into(),
            corrupt: false,
        }));
        match Arc::clone(&store).try_lock_owned() {
            Ok(mut slot) => {
                let app = app.clone();
                tauri::async_runtime::spawn(async move {
                    let began = std::time::Instant::now();
                    *slot = match database_path(&app) {
                        Ok(path) => open_store(&path).await,
                        Err(message) => StoreSlot::Failed {
                            path: PathBuf::new(),
                            message,
                            corrupt: false,
                        },
                    };
                    log::info!(
                        "store ready in {} ms ({} ms after start)",
                        began.elapsed().as_millis(),
                        crate::startup_clock::ms()
                    );
                });
            }
            // A mutex made a line above is free; were it not, the placeholder says why.
            Err(_) => log::error!("cannot take the new store's lock to open it"),
        }
        let mut windows = Windows::default();
        let opening = launch_folder(&launch);
        windows.add(FIRST_WINDOW, Some(launch), opening);
        Self {
            store,
            windows: std::sync::Mutex::new(windows),
            sessions: SessionHub::default(),
            mcp: McpHubs::default(),
            tasks: std::sync::Mutex::default(),
            queued: std::sync::Mutex::default(),
        }
    }
}

impl AppState {
    /// The engine's tasks, once made (never held across an `await`).
    pub fn tasks_slot(&self) -> std::sync::MutexGuard<'_, Option<foreman_core::tasks::Tasks>> {
        self.tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The tasks whose session waits for a slot or its folder, with why.
    pub fn queued_tasks(&self) -> std::collections::HashMap<String, String> {
        self.queued.lock().map(|q| q.clone()).unwrap_or_default()
    }

    /// Marks task `id` as waiting, and why (`None`: it waits no more).
    pub fn set_queued(&self, id: &str, why: Option<String>) {
        if let Ok(mut q) = self.queued.lock() {
            match why {
                Some(why) => q.insert(id.to_owned(), why),
                None => q.remove(id),
            };
        }
    }

    /// Every window's state, for a moment (never held across an `await`).
    pub fn windows(&self) -> std::sync::MutexGuard<'_, Windows> {
        // A panic while it was held leaves it as it was: still the best there is.
        self.windows
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The folder `launch` asks for, if it is one.
pub fn launch_folder(launch: &LaunchRequest) -> Option<PathBuf> {
    let raw = launch.workspace.as_deref()?;
    foreman_core::workspace::WorkspaceDir::resolve(raw, &launch.cwd)
        .ok()
        .map(|dir| dir.path)
}

/// The app's data folder: the database, the sessions' artefacts, the checkpoints, the tasks'
/// worktrees.
pub fn state_data_dir(app: &AppHandle) -> Result<PathBuf, CommandError> {
    app.path()
        .app_data_dir()
        .map_err(|e| CommandError::new(format!("Cannot find the app data directory: {e}")))
}

pub fn database_path(app: &AppHandle) -> Result<PathBuf, String> {
    app.path()
        .app_data_dir()
        .map(|dir| dir.join(DATABASE_FILE))
        .map_err(|e| format!("Cannot find the app data directory: {e}"))
}

pub async fn open_store(path: &std::path::Path) -> StoreSlot {
    match Store::open(path).await {
        Ok(store) => {
            log::info!("store opened at {}", path.display());
            StoreSlot::Open(store)
        }
        Err(error) => {
            log::error!("store failed to open: {error}");
            let corrupt = matches!(
                error,
                StoreError::Corrupt { .. } | StoreError::TooNew { .. }
            );
            StoreSlot::Failed {
                path: error.path().to_path_buf(),
                message: error.to_string(),
                corrupt,
            }
        }
    }
}

/// Renames a damaged database aside (never deletes it) and opens a fresh one in its place;
/// refused while the database is open.
pub async fn move_aside_and_reopen(app: &AppHandle, state: &AppState) -> Result<(), CommandError> {
    let path = database_path(app)?;
    let mut slot = state.store.lock().await;
    if let StoreSlot::Open(_) = &*slot {
        return Err(CommandError::new(
            "The database is open; there is nothing to move.",
        ));
    }
    let moved = foreman_core::store::move_aside(&path)?;
    log::warn!(
        "moved damaged database {} to {}",
        path.display(),
        moved.display()
    );
    *slot = open_store(&path).await;
    Ok(())
}

/// The open store (a cheap clone), or the error that keeps it closed.
pub async fn open_store_ref(state: &AppState) -> Result<Store, CommandError> {
    match &*state.store.lock().await {
        StoreSlot::Open(store) => Ok(store.clone()),
        StoreSlot::Failed { message, .. } => Err(CommandError {
            message: message.clone(),
        }),
    }
}
