//! The app's windows: one workspace each. A new window opens on the welcome screen or on a
//! folder (a window already showing that folder comes to the front instead); a second
//! `foreman DIR` hands its command line to the running app, which does the same with it. The
//! title names the workspace. Closing a window ends its sessions and stops the MCP servers that
//! no other window or session still needs.
//!
//! What each window shows is kept in `window_state.rs`, by window label.

use std::path::PathBuf;

use tauri::{AppHandle, Manager, WebviewWindow, WebviewWindowBuilder, Window, WindowEvent};

use crate::launch::LaunchRequest;
use crate::state::{AppState, launch_folder};
use crate::view::WorkspaceView;
use crate::window_state::{Claim, FIRST_WINDOW, unused_hubs};

/// Opens a window: on the welcome screen (`None`), or on `workspace`, unless a window already
/// shows that folder, which then comes to the front.
pub fn open_window(app: &AppHandle, workspace: Option<PathBuf>) -> tauri::Result<()> {
    let launch = workspace.map(|dir| LaunchRequest {
        workspace: Some(dir.display().to_string()),
        cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
    });
    open_for(app, launch)
}

/// Opens a window for `launch` (`None`: the welcome screen). A folder some window already shows
/// brings that window to the front; a folder that cannot be opened gets a new window whose
/// welcome screen says why.
fn open_for(app: &AppHandle, launch: Option<LaunchRequest>) -> tauri::Result<()> {
    let Some(state) = app.try_state::<AppState>() else {
        return Ok(());
    };
    let folder = launch.as_ref().and_then(launch_folder);
    let shown = folder.as_ref().map(|f| f.display().to_string());
    // Bound first: the lock must be let go before the arms take it again.
    let claim = state.windows().claim(launch, folder);
    let label = match claim {
        Claim::New(label) => label,
        Claim::Existing(label) => {
            if let Some(window) = app.get_webview_window(&label) {
                log::info!(
                    "{} is open in window {label}: bringing it to the front",
                    shown.unwrap_or_default()
                );
                return bring_to_front(&window);
            }
            // It closed a moment ago: a new window, then (the folder is absolute).
            state.windows().remove(&label);
            let again = shown.map(|path| LaunchRequest {
                workspace: Some(path),
                cwd: PathBuf::from("/"),
            });
            return open_for(app, again);
        }
    };
    match build(app, &label) {
        Ok(_) => {
            log::info!("opened window {label}");
            Ok(())
        }
        Err(error) => {
            state.windows().remove(&label);
            log::error!("cannot open a window: {error}");
            Err(error)
        }
    }
}

/// A window made like the first one (`tauri.conf.json`), with `label`.
fn build(app: &AppHandle, label: &str) -> tauri::Result<WebviewWindow> {
    let mut config = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == FIRST_WINDOW)
        .cloned()
        .unwrap_or_default();
    label.clone_into(&mut config.label);
    let window = WebviewWindowBuilder::from_config(app, &config)?.build()?;
    crate::web_process::reload_when_it_ends(&window);
    Ok(window)
}

/// Unminimises, shows and focuses `window`.
pub fn bring_to_front(window: &WebviewWindow) -> tauri::Result<()> {
    window.unminimize()?;
    window.show()?;
    window.set_focus()
}

/// A second `foreman` was started while this app runs and handed over its command line (`args`,
/// the program first) and directory: its folder opens here, or with no folder a window comes
/// to the front (a new one if there is none).
pub fn second_launch(app: &AppHandle, args: Vec<String>, cwd: String) {
    log::info!("a second launch handed over {args:?} from {cwd}");
    let launch = match LaunchRequest::forwarded(args, cwd) {
        Ok(launch) => launch,
        Err(error) => {
            log::warn!("a second launch's command line was refused: {error}");
            LaunchRequest::default()
        }
    };
    let result = if launch.workspace.is_some() {
        open_for(app, Some(launch))
    } else {
        let last = app
            .try_state::<AppState>()
            .and_then(|state| state.windows().last_focused());
        match last.and_then(|label| app.get_webview_window(&label)) {
            Some(window) => bring_to_front(&window),
            None => open_for(app, None),
        }
    };
    if let Err(error) = result {
        log::error!("cannot answer a second launch: {error}");
    }
}

/// The title of a window showing `workspace` (`None`: the welcome screen).
pub fn title_for(workspace: Option<&WorkspaceView>) -> String {
    match workspace {
        Some(view) => format!("{} — Foreman", view.name),
        None => "Foreman".to_owned(),
    }
}

/// Titles `window` after the workspace it shows.
pub fn set_title(window: &WebviewWindow, workspace: Option<&WorkspaceView>) {
    if let Err(error) = window.set_title(&title_for(workspace)) {
        log::warn!("cannot set the title of window {}: {error}", window.label());
    }
}

/// Keeps the windows' state up to date as they take focus and close.
pub fn on_event(window: &Window, event: &WindowEvent) {
    match event {
        WindowEvent::Focused(true) => {
            if let Some(state) = window.try_state::<AppState>() {
                state.windows().focused(window.label());
            }
        }
        WindowEvent::Destroyed => closed(window.app_handle(), window.label()),
        _ => {}
    }
}

/// Window `label` closed: its sessions end as they do when the app quits, and the MCP servers of
/// folders no other window shows and no session works in stop.
fn closed(app: &AppHandle, label: &str) {
    let Some(state) = app.try_state::<AppState>() else {
        return;
    };
    let (left, shown) = {
        let mut windows = state.windows();
        windows.remove(label);
        (windows.len(), windows.folders())
    };
    let ended = state.sessions.shutdown_window(label);
    log::info!("window {label} closed; {ended} of its sessions asked to end");
    if left == 0 {
        // The app is quitting: `RunEvent::ExitRequested` stops every server.
        return;
    }
    let working = state.sessions.workspaces_besides(label);
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        if let Some(state) = app.try_state::<AppState>() {
            let hubs = state.mcp.folders().await;
            for folder in unused_hubs(hubs, &shown, &working) {
                log::info!("stopping the MCP servers of {}", folder.display());
                state.mcp.reload(&folder).await;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_names_the_workspace() {
        let view = WorkspaceView {
            name: "demo".into(),
            path: "/w/demo".into(),
        };
        assert_eq!(title_for(Some(&view)), "demo — Foreman");
        assert_eq!(title_for(None), "Foreman");
    }
}
