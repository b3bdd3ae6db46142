//! A window's web process ending unexpectedly (a crash, or the system's memory limit) would
//! leave the window blank for good while the engine and its sessions go on behind it. The page is
//! loaded again instead: it opens the workspace and the session it showed (`startup` remembers
//! both), which reattaches to the running engine, whose snapshot brings it back, and it tells the
//! user what happened.
//!
//! Linux only: on WebKitGTK the `web-process-terminated` signal says why the process ended. The
//! other platforms' webviews are left as they are.

/// Reloads `window`'s page whenever its web process ends without being asked to.
#[cfg(target_os = "linux")]
pub fn reload_when_it_ends(window: &tauri::WebviewWindow) {
    use webkit2gtk::{WebProcessTerminationReason, WebViewExt};

    let label = window.label().to_owned();
    let watched = window.with_webview(move |platform| {
        platform
            .inner()
            .connect_web_process_terminated(move |view, reason| {
                if reason == WebProcessTerminationReason::TerminatedByApi {
                    // Asked for (the window is closing, or a driver ended the page).
                    log::info!("the window's web process was ended on request ({label})");
                    return;
                }
                log::error!(
                    "the window's web process ended unexpectedly ({reason:?}); reloading the page ({label})"
                );
                view.reload();
            });
    });
    if let Err(error) = watched {
        log::warn!("cannot watch the window's web process: {error}");
    }
}

#[cfg(not(target_os = "linux"))]
pub fn reload_when_it_ends(_window: &tauri::WebviewWindow) {}
