//! The app's windows beyond the first: File → New Window opens another one on the app's page.
//!
//! Each new window has a label of its own (`w-1`, `w-2`…), which the capability in
//! `capabilities/main.json` matches, so its page may call the same commands as the first.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use tauri::{AppHandle, Manager, WebviewUrl, WebviewWindowBuilder};

/// The label of the window the app opens with (`tauri.conf.json`).
pub const FIRST: &str = "main";

/// The number of the next window's label.
static NEXT: AtomicUsize = AtomicUsize::new(1);

/// Opens a new window on the app's page. A `workspace` is logged but not yet opened in it: the
/// window shows the welcome screen (`commands::startup`).
pub fn open_window(app: &AppHandle, workspace: Option<PathBuf>) -> tauri::Result<()> {
    let label = loop {
        let label = format!("w-{}", NEXT.fetch_add(1, Ordering::Relaxed));
        if app.get_webview_window(&label).is_none() {
            break label;
        }
    };
    if let Some(path) = &workspace {
        log::info!("new window {label} asked for {}", path.display());
    }
    WebviewWindowBuilder::new(app, &label, WebviewUrl::App("index.html".into()))
        .title("Foreman")
        .inner_size(1200.0, 800.0)
        .min_inner_size(720.0, 480.0)
        .build()?;
    log::info!("opened window {label}");
    Ok(())
}
