//! System notifications: an approval waits while the person is in another window.

use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;

/// Notifies that `tool` waits for approval, unless the main window has focus or the person
/// turned these notifications off.
pub fn approval_waiting(app: &AppHandle, tool: &str, reason: &str) {
    let focused = app
        .get_webview_window("main")
        .and_then(|w| w.is_focused().ok())
        .unwrap_or(false);
    if focused || !crate::state::notify_enabled(app) {
        return;
    }
    let shown = app
        .notification()
        .builder()
        .title(format!("Foreman: approve {tool}?"))
        .body(reason)
        .show();
    if let Err(error) = shown {
        log::warn!("cannot show a notification: {error}");
    }
}
