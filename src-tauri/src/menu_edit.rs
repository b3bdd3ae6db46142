//! The Edit menu: Undo, Redo, Cut, Copy, Paste, Select All.
//!
//! On macOS and Windows these are the platform's own items. On Linux the menu library's own
//! items do nothing when clicked (it would need libxdo to send the keys) and it greys out Undo and
//! Redo, so here each item runs WebKitGTK's editing command of that name in the focused window's
//! page. They carry no shortcut: a window shortcut would take Ctrl+C or Ctrl+A before the page
//! sees it, and the page handles those keys itself (Select All in a diff selects only the diff).

use tauri::menu::{Submenu, SubmenuBuilder};
use tauri::{AppHandle, WebviewWindow, Wry};

/// The Edit menu.
#[cfg(target_os = "linux")]
pub fn submenu(app: &AppHandle) -> tauri::Result<Submenu<Wry>> {
    let mut menu = SubmenuBuilder::new(app, "&Edit");
    for (i, (id, text, _)) in ITEMS.iter().enumerate() {
        // Separators after Redo and after Paste, as the platforms' own Edit menus have them.
        if i == 2 || i == 5 {
            menu = menu.separator();
        }
        menu = menu.text(*id, *text);
    }
    menu.build()
}

/// The Edit menu.
#[cfg(not(target_os = "linux"))]
pub fn submenu(app: &AppHandle) -> tauri::Result<Submenu<Wry>> {
    SubmenuBuilder::new(app, "&Edit")
        .undo()
        .redo()
        .separator()
        .cut()
        .copy()
        .paste()
        .separator()
        .select_all()
        .build()
}

/// The Linux items: menu id, label, and WebKit's editing command.
#[cfg(target_os = "linux")]
const ITEMS: &[(&str, &str, &str)] = &[
    ("edit.undo", "&Undo", "Undo"),
    ("edit.redo", "&Redo", "Redo"),
    ("edit.cut", "Cu&t", "Cut"),
    ("edit.copy", "&Copy", "Copy"),
    ("edit.paste", "&Paste", "Paste"),
    ("edit.select_all", "Select &All", "SelectAll"),
];

/// The editing command of the Edit item `id`, if it is one.
#[cfg(target_os = "linux")]
pub fn command(id: &str) -> Option<&'static str> {
    ITEMS
        .iter()
        .find(|(item, _, _)| *item == id)
        .map(|(_, _, command)| *command)
}

/// The editing command of the Edit item `id`: none, the platform's own items act by themselves.
#[cfg(not(target_os = "linux"))]
pub fn command(_id: &str) -> Option<&'static str> {
    None
}

/// Runs WebKit's editing `command` in `window`'s page, where its focus or selection is.
#[cfg(target_os = "linux")]
pub fn run(window: &WebviewWindow, command: &'static str) {
    use webkit2gtk::WebViewExt;
    let done = window.with_webview(move |platform| {
        platform.inner().execute_editing_command(command);
    });
    if let Err(e) = done {
        log::warn!("cannot run {command} in window {}: {e}", window.label());
    }
}

/// Runs an editing command: the platform's own items need nothing from here.
#[cfg(not(target_os = "linux"))]
pub fn run(_window: &WebviewWindow, _command: &'static str) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn each_item_names_its_webkit_command() {
        assert_eq!(command("edit.copy"), Some("Copy"));
        assert_eq!(command("edit.select_all"), Some("SelectAll"));
        assert_eq!(command("edit.undo"), Some("Undo"));
        assert_eq!(command("file.open_folder"), None);
    }
}
