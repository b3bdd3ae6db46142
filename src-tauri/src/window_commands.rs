//! Commands about windows: open a folder (or the welcome screen) in a new window, and go back
//! to the welcome screen in this one.

use foreman_core::workspace::WorkspaceDir;
use tauri::{AppHandle, State, WebviewWindow};

use crate::state::AppState;
use crate::view::CommandError;

/// Opens `path` in a new window (the window that already shows it comes to the front instead),
/// or with no path a new window on the welcome screen.
#[tauri::command]
pub async fn open_new_window(app: AppHandle, path: Option<String>) -> Result<(), CommandError> {
    let folder = match path {
        Some(raw) => {
            let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/"));
            Some(WorkspaceDir::resolve(&raw, &cwd)?.path)
        }
        None => None,
    };
    crate::windows::open_window(&app, folder)?;
    Ok(())
}

/// The calling window went back to the welcome screen: it shows no workspace any more (a page
/// loaded again stays on the welcome screen, and a second launch with that folder opens a new
/// window rather than this one).
#[tauri::command]
pub fn show_welcome(window: WebviewWindow, state: State<'_, AppState>) {
    {
        let mut windows = state.windows();
        let this = windows.get(window.label());
        this.shown = None;
        this.shown_session = None;
        this.opening = None;
    }
    crate::windows::set_title(&window, None);
}
