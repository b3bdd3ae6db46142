//! `tasks-changed`: the event every window refreshes its tasks and inbox on, with the
//! workspace's path as its payload.

use tauri::{AppHandle, Emitter};

/// The event's name.
pub const TASKS_CHANGED: &str = "tasks-changed";

/// Tells every window that `workspace`'s tasks changed.
pub fn changed(app: &AppHandle, workspace: &str) {
    if let Err(error) = app.emit(TASKS_CHANGED, workspace) {
        log::debug!("tasks-changed not sent: {error}");
    }
}
