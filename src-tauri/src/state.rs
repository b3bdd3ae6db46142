//! The app's shared state: the store (or why it could not be opened) and the launch request.

use std::path::PathBuf;

use foreman_core::store::{DATABASE_FILE, Store, StoreError};
use tauri::{AppHandle, Manager};
use tokio::sync::Mutex;

use crate::bridge::SessionHub;
use crate::launch::LaunchRequest;
use crate::mcp::McpHubs;
use crate::view::CommandError;

pub struct AppState {
    pub store: Mutex<StoreSlot>,
    pub launch: Mutex<Option<LaunchRequest>>,
    /// The workspace the window last opened: a page loaded again (after its web process ended)
    /// shows it instead of the welcome screen.
    pub shown: Mutex<Option<crate::view::WorkspaceView>>,
    /// The session the window last opened in that workspace, which such a page opens again.
    pub shown_session: Mutex<Option<String>>,
    pub sessions: SessionHub,
    pub mcp: McpHubs,
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
    pub async fn load(app: &AppHandle, launch: LaunchRequest) -> Self {
        let slot = match database_path(app) {
            Ok(path) => open_store(&path).await,
            Err(message) => StoreSlot::Failed {
                path: PathBuf::new(),
                message,
                corrupt: false,
            },
        };
        Self {
            store: Mutex::new(slot),
            launch: Mutex::new(Some(launch)),
            shown: Mutex::new(None),
            shown_session: Mutex::new(None),
            sessions: SessionHub::default(),
            mcp: McpHubs::default(),
        }
    }
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

/// The open store (a cheap clone), or the error that keeps it closed.
pub async fn open_store_ref(state: &AppState) -> Result<Store, CommandError> {
    match &*state.store.lock().await {
        StoreSlot::Open(store) => Ok(store.clone()),
        StoreSlot::Failed { message, .. } => Err(CommandError {
            message: message.clone(),
        }),
    }
}
