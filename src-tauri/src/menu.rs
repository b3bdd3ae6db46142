//! The native menu bar: File, Edit, View and Help.
//!
//! File → Open Folder… and Open Recent act in the focused window through its page: the page is
//! sent a [`MenuRequest`] on the [`EVENT`] event and runs the same flow as its own "Open folder"
//! button. The rest is done here: new and closed windows, the webview's zoom, the logs folder,
//! Copy Diagnostics and the About box; Edit is `menu_edit`. `&` in a label marks its mnemonic
//! (Alt+F opens File). Shortcuts use `CmdOrCtrl`: Ctrl on Linux and Windows, Cmd on macOS.

use std::collections::HashMap;
use std::sync::Mutex;

use foreman_core::store::{RecentWorkspace, Store};
use serde::Serialize;
use tauri::menu::{
    AboutMetadata, Menu, MenuEvent, MenuItem, PredefinedMenuItem, Submenu, SubmenuBuilder,
};
use tauri::{AppHandle, Emitter, EventTarget, Manager, WebviewWindow, Wry};
use tauri_plugin_dialog::{DialogExt, MessageDialogKind};
use tauri_plugin_opener::OpenerExt;
use ts_rs::TS;

use crate::state::{AppState, open_store_ref};

/// The event a window's page receives a [`MenuRequest`] on.
pub const EVENT: &str = "menu";

/// How many recent folders File → Open Recent lists.
const RECENT_IN_MENU: usize = 10;

/// What the menu asks the focused window's page to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum MenuRequest {
    /// Ask for a folder and open it, as the "Open folder" button does.
    OpenFolder,
    /// Open this folder as the workspace.
    OpenRecent { path: String },
}

const OPEN_FOLDER: &str = "file.open_folder";
const NEW_WINDOW: &str = "file.new_window";
const CLOSE_WINDOW: &str = "file.close_window";
const ZOOM_IN: &str = "view.zoom_in";
const ZOOM_OUT: &str = "view.zoom_out";
const ZOOM_RESET: &str = "view.zoom_reset";
const OPEN_LOGS: &str = "help.open_logs";
const COPY_DIAGNOSTICS: &str = "help.copy_diagnostics";
/// Open Recent's items: this prefix and the folder's path.
const RECENT_PREFIX: &str = "file.recent:";
const RECENT_NONE: &str = "file.recent_none";

/// The Open Recent submenu, kept to refill when the recent folders change.
struct RecentMenu(Submenu<Wry>);

/// Each window's zoom factor (the webview cannot be asked for it).
#[derive(Default)]
struct ZoomLevels(Mutex<HashMap<String, f64>>);

/// The zoom factors View → Zoom In and Zoom Out step through, as browsers do.
const ZOOM_STEPS: &[f64] = &[
    0.5, 0.67, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0,
];

/// The menu bar. Given to `tauri::Builder::menu`, so every window, later ones too, has it.
pub fn build(app: &AppHandle) -> tauri::Result<Menu<Wry>> {
    let recent = Submenu::with_id(app, "file.recent", "Open &Recent", true)?;
    app.manage(RecentMenu(recent.clone()));
    app.manage(ZoomLevels::default());
    show_recent(app, &[]);
    let item = |id: &str, text: &str, accelerator: Option<&str>| {
        MenuItem::with_id(app, id, text, true, accelerator)
    };
    let file = SubmenuBuilder::new(app, "&File")
        .item(&item(OPEN_FOLDER, "&Open Folder…", Some("CmdOrCtrl+O"))?)
        .item(&recent)
        .separator()
        .item(&item(NEW_WINDOW, "&New Window", Some("CmdOrCtrl+Shift+N"))?)
        .item(&item(
            CLOSE_WINDOW,
            "&Close Window",
            Some("CmdOrCtrl+Shift+W"),
        )?)
        .build()?;
    let edit = crate::menu_edit::submenu(app)?;
    let view = SubmenuBuilder::new(app, "&View")
        .item(&item(ZOOM_IN, "Zoom &In", Some("CmdOrCtrl+Equal"))?)
        .item(&item(ZOOM_OUT, "Zoom &Out", Some("CmdOrCtrl+Minus"))?)
        .item(&item(ZOOM_RESET, "&Reset Zoom", Some("CmdOrCtrl+0"))?)
        .build()?;
    let about = AboutMetadata {
        name: Some("Foreman".into()),
        version: Some(app.package_info().version.to_string()),
        comments: Some("Supervise an AI coding agent in a folder you choose.".into()),
        license: Some("MIT".into()),
        website: Some("https://foreman.dev".into()),
        website_label: Some("foreman.dev".into()),
        icon: app.default_window_icon().cloned(),
        ..AboutMetadata::default()
    };
    let help = SubmenuBuilder::new(app, "&Help")
        .item(&item(OPEN_LOGS, "Open &Logs Folder", None)?)
        .item(&item(COPY_DIAGNOSTICS, "&Copy Diagnostics", None)?)
        .separator()
        .item(&PredefinedMenuItem::about(
            app,
            Some("&About Foreman"),
            Some(about),
        )?)
        .build()?;
    Menu::with_items(app, &[&file, &edit, &view, &help])
}

/// Runs the menu item `event` names. Given to `tauri::Builder::on_menu_event`.
pub fn on_event(app: &AppHandle, event: MenuEvent) {
    let id = event.id().as_ref();
    let window = focused_window(app);
    match id {
        OPEN_FOLDER => ask_page(window.as_ref(), MenuRequest::OpenFolder),
        NEW_WINDOW => {
            if let Err(e) = crate::windows::open_window(app, None) {
                log::error!("cannot open a new window: {e}");
            }
        }
        CLOSE_WINDOW => {
            if let Some(window) = window {
                log::info!("closing window {}", window.label());
                if let Err(e) = window.close() {
                    log::error!("cannot close window {}: {e}", window.label());
                }
            }
        }
        ZOOM_IN => zoom(app, window.as_ref(), Zoom::In),
        ZOOM_OUT => zoom(app, window.as_ref(), Zoom::Out),
        ZOOM_RESET => zoom(app, window.as_ref(), Zoom::Reset),
        OPEN_LOGS => open_logs_folder(app),
        COPY_DIAGNOSTICS => copy_diagnostics(app),
        other => {
            if let Some(path) = other.strip_prefix(RECENT_PREFIX) {
                ask_page(
                    window.as_ref(),
                    MenuRequest::OpenRecent { path: path.into() },
                );
            } else if let (Some(command), Some(window)) =
                (crate::menu_edit::command(other), window.as_ref())
            {
                crate::menu_edit::run(window, command);
            }
        }
    }
}

/// Fills File → Open Recent from the store's recent folders.
pub async fn refresh_recent(app: &AppHandle) {
    let Some(state) = app.try_state::<AppState>() else {
        return;
    };
    if let Ok(store) = open_store_ref(&state).await {
        show_recent_from(app, &store).await;
    }
}

/// Fills File → Open Recent from `store`'s recent folders (for a caller that holds the store).
pub async fn show_recent_from(app: &AppHandle, store: &Store) {
    match store
        .recent_workspaces(u32::try_from(RECENT_IN_MENU).unwrap_or(10))
        .await
    {
        Ok(recent) => show_recent(app, &recent),
        Err(e) => log::warn!("cannot list the recent folders for the menu: {e}"),
    }
}

/// Puts `recent` into File → Open Recent (a greyed-out line when there are none).
fn show_recent(app: &AppHandle, recent: &[RecentWorkspace]) {
    let Some(menu) = app.try_state::<RecentMenu>() else {
        return;
    };
    let result = (|| -> tauri::Result<()> {
        while menu.0.remove_at(0)?.is_some() {}
        if recent.is_empty() {
            let none =
                MenuItem::with_id(app, RECENT_NONE, "No recent folders", false, None::<&str>)?;
            return menu.0.append(&none);
        }
        for workspace in recent.iter().take(RECENT_IN_MENU) {
            let text = format!("{} — {}", workspace.name, workspace.path);
            let id = format!("{RECENT_PREFIX}{}", workspace.path);
            // `&` marks a mnemonic in menu labels; a folder's own `&` is doubled to stay one.
            let text = text.replace('&', "&&");
            menu.0
                .append(&MenuItem::with_id(app, id, text, true, None::<&str>)?)?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        log::warn!("cannot fill File → Open Recent: {e}");
    }
}

/// The window the user works in: the focused one, else the first window, else the only one.
fn focused_window(app: &AppHandle) -> Option<WebviewWindow> {
    let windows = app.webview_windows();
    windows
        .values()
        .find(|w| w.is_focused().unwrap_or(false))
        .or_else(|| windows.get(crate::window_state::FIRST_WINDOW))
        .or_else(|| windows.values().next())
        .cloned()
}

/// Sends `request` to `window`'s page.
fn ask_page(window: Option<&WebviewWindow>, request: MenuRequest) {
    let Some(window) = window else {
        log::warn!("no window for the menu's {request:?}");
        return;
    };
    let target = EventTarget::webview_window(window.label());
    if let Err(e) = window.emit_to(target, EVENT, &request) {
        log::error!("cannot send {request:?} to window {}: {e}", window.label());
    }
}

/// Which way View's zoom items go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Zoom {
    In,
    Out,
    Reset,
}

/// The zoom factor after `step` from `current`: the next of [`ZOOM_STEPS`] that way.
fn next_zoom(current: f64, step: Zoom) -> f64 {
    let last = ZOOM_STEPS.len() - 1;
    match step {
        Zoom::Reset => 1.0,
        Zoom::In => ZOOM_STEPS
            .iter()
            .copied()
            .find(|z| *z > current + 1e-6)
            .unwrap_or(ZOOM_STEPS[last]),
        Zoom::Out => ZOOM_STEPS
            .iter()
            .rev()
            .copied()
            .find(|z| *z < current - 1e-6)
            .unwrap_or(ZOOM_STEPS[0]),
    }
}

fn zoom(app: &AppHandle, window: Option<&WebviewWindow>, step: Zoom) {
    let (Some(window), Some(levels)) = (window, app.try_state::<ZoomLevels>()) else {
        return;
    };
    let Ok(mut levels) = levels.0.lock() else {
        return;
    };
    let level = levels.entry(window.label().to_owned()).or_insert(1.0);
    let next = next_zoom(*level, step);
    match window.set_zoom(next) {
        Ok(()) => *level = next,
        Err(e) => log::error!("cannot zoom window {}: {e}", window.label()),
    }
}

/// Help → Open Logs Folder: the log directory in the file manager.
fn open_logs_folder(app: &AppHandle) {
    let dir = match crate::diagnostics_commands::log_dir(app) {
        Ok(dir) => dir,
        Err(e) => return show_message(app, "Open Logs Folder", &e.message, true),
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        log::warn!("cannot create the log folder {}: {e}", dir.display());
    }
    let path = dir.display().to_string();
    if let Err(e) = app.opener().open_path(&path, None::<&str>) {
        log::warn!("cannot open the log folder {path}: {e}");
        show_message(
            app,
            "Open Logs Folder",
            &format!("The logs are in {path}, but no file manager opened it: {e}"),
            true,
        );
    }
}

/// Help → Copy Diagnostics: the text on the clipboard and a message that says so.
fn copy_diagnostics(app: &AppHandle) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        match crate::diagnostics_commands::copy_diagnostics(app.clone()).await {
            Ok(_) => show_message(
                &app,
                "Copy Diagnostics",
                "The diagnostics are on the clipboard, with keys taken out. Paste them into your \
                 bug report.",
                false,
            ),
            Err(e) => show_message(&app, "Copy Diagnostics", &e.message, true),
        }
    });
}

fn show_message(app: &AppHandle, title: &str, text: &str, error: bool) {
    let kind = if error {
        MessageDialogKind::Error
    } else {
        MessageDialogKind::Info
    };
    app.dialog()
        .message(text)
        .title(title)
        .kind(kind)
        .show(|_| {});
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_up_to_date() {
        foreman_protocol::bindings::assert_bindings_current::<MenuRequest>();
    }

    #[test]
    fn zoom_steps_in_and_out_and_stops_at_the_ends() {
        assert_eq!(next_zoom(1.0, Zoom::In), 1.1);
        assert_eq!(next_zoom(1.0, Zoom::Out), 0.9);
        assert_eq!(
            next_zoom(1.05, Zoom::In),
            1.1,
            "between steps: the next one"
        );
        assert_eq!(next_zoom(1.05, Zoom::Out), 1.0);
        assert_eq!(next_zoom(3.0, Zoom::In), 3.0);
        assert_eq!(next_zoom(0.5, Zoom::Out), 0.5);
        assert_eq!(next_zoom(2.5, Zoom::Reset), 1.0);
    }

    #[test]
    fn a_request_reaches_the_page_as_tagged_json() {
        let json = serde_json::to_value(MenuRequest::OpenRecent {
            path: "/home/a/project".into(),
        })
        .unwrap();
        assert_eq!(
            json,
            serde_json::json!({"action": "open_recent", "path": "/home/a/project"})
        );
        assert_eq!(
            serde_json::to_value(MenuRequest::OpenFolder).unwrap(),
            serde_json::json!({"action": "open_folder"})
        );
    }
}
