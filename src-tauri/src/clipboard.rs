//! Writing text to the system clipboard from Rust, so the page needs no clipboard permission.
//!
//! On Linux this is GTK's clipboard (GTK is already the window's toolkit, so no new library):
//! the app owns the text until something else is copied, and hands it to the clipboard
//! manager, if one runs, when it quits. Other platforms are not built yet: the caller shows the
//! text for copying by hand.

use tauri::AppHandle;

/// Why text could not be put on the clipboard.
#[derive(Debug, thiserror::Error)]
pub enum ClipboardError {
    #[error("Cannot reach the clipboard: {0}")]
    MainThread(#[from] tauri::Error),
    #[error("Copying to the clipboard is not built for this platform yet.")]
    #[cfg(not(target_os = "linux"))]
    Unsupported,
}

/// Puts `text` on the clipboard (the one Ctrl+V pastes from). GTK's clipboard is used on the
/// main thread, so this returns once the work is queued there.
#[cfg(target_os = "linux")]
pub fn write_text(app: &AppHandle, text: String) -> Result<(), ClipboardError> {
    app.run_on_main_thread(move || {
        let clipboard = gtk::Clipboard::get(&gtk::gdk::SELECTION_CLIPBOARD);
        clipboard.set_text(&text);
        // Lets a clipboard manager keep the text after Foreman quits.
        clipboard.store();
    })?;
    Ok(())
}

/// Puts `text` on the clipboard: not built for this platform yet.
#[cfg(not(target_os = "linux"))]
pub fn write_text(_app: &AppHandle, _text: String) -> Result<(), ClipboardError> {
    Err(ClipboardError::Unsupported)
}
