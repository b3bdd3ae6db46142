//! Help → Copy Diagnostics and the Settings screen's "Copy diagnostics" button: gathers the facts
//! of the running app, renders them with `diagnostics::render` and puts the text on the
//! clipboard.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use tauri::{AppHandle, Manager};

use crate::diagnostics::{self, Facts};
use crate::settings::{self, key_for, settings_path};
use crate::view::CommandError;

/// The log file's name in the log directory (`tauri_plugin_log`'s `LogDir` target in `lib.rs`).
pub const LOG_FILE: &str = "foreman.log";

/// Only the end of the log is read: 50 lines never need more.
const LOG_TAIL_BYTES: u64 = 64 * 1024;

/// Copies the diagnostics to the clipboard and returns them, for the UI to show.
#[tauri::command]
pub async fn copy_diagnostics(app: AppHandle) -> Result<String, CommandError> {
    let text = gather(&app).await;
    crate::clipboard::write_text(&app, text.clone())?;
    log::info!("diagnostics copied to the clipboard");
    Ok(text)
}

/// Where the app writes its log.
pub fn log_dir(app: &AppHandle) -> Result<PathBuf, CommandError> {
    app.path()
        .app_log_dir()
        .map_err(|e| CommandError::new(format!("Cannot find the log directory: {e}")))
}

/// The diagnostics text of the running app, secrets redacted.
pub async fn gather(app: &AppHandle) -> String {
    let unknown = |e: CommandError| format!("unknown ({})", e.message);
    let dir = |d: tauri::Result<PathBuf>| {
        d.map_or_else(|e| format!("unknown ({e})"), |d| d.display().to_string())
    };
    let log_file = log_dir(app).map(|d| d.join(LOG_FILE));
    let loaded = settings_path(app).and_then(|path| settings::load(&path));
    let (provider, model, preset) = match &loaded {
        Ok(s) => (
            s.provider.preset.label().to_owned(),
            s.provider.model.clone(),
            Some(s.provider.preset),
        ),
        Err(e) => (format!("unknown ({})", e.message), String::new(), None),
    };
    let (os, kernel) = os_description();
    let facts = Facts {
        version: app.package_info().version.to_string(),
        os,
        kernel,
        arch: std::env::consts::ARCH.to_owned(),
        webview: tauri::webview_version().unwrap_or_else(|e| format!("unknown ({e})")),
        provider,
        model,
        data_dir: dir(app.path().app_data_dir()),
        config_dir: dir(app.path().app_config_dir()),
        log_file: log_file
            .as_ref()
            .map_or_else(|e| unknown(e.clone()), |f| f.display().to_string()),
    };
    let log = log_file
        .as_deref()
        .map_or_else(|_| String::new(), |f| read_tail(f, LOG_TAIL_BYTES));
    let mut secrets = diagnostics::secrets_in_environment(std::env::vars());
    if let Some(preset) = preset {
        // The stored key is read only to be sure it is taken out; a keychain error leaves the
        // other safeguards (known keys, key-like patterns) to do it.
        let key = tauri::async_runtime::spawn_blocking(move || key_for(preset).read())
            .await
            .ok()
            .and_then(Result::ok)
            .flatten();
        if let Some(key) = key {
            secrets.push(key.expose().to_owned());
        }
    }
    let text = diagnostics::render(&facts, &log, &secrets);
    // Every key this process has held, wherever it came from.
    foreman_core::secrets::scrub(&text).into_owned()
}

/// The OS's name and version, and the kernel's release where there is one to read.
fn os_description() -> (String, Option<String>) {
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_owned())
        });
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|k| k.trim().to_owned());
    (
        pretty.unwrap_or_else(|| std::env::consts::OS.to_owned()),
        kernel,
    )
}

/// The last `bytes` of `file` as text (from the first whole line); empty when it cannot be read.
fn read_tail(file: &Path, bytes: u64) -> String {
    let Ok(mut f) = std::fs::File::open(file) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let start = len.saturating_sub(bytes);
    if f.seek(SeekFrom::Start(start)).is_err() {
        return String::new();
    }
    let mut raw = Vec::new();
    if f.read_to_end(&mut raw).is_err() {
        return String::new();
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    match (start > 0, text.find('\n')) {
        (true, Some(newline)) => text[newline + 1..].to_owned(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_of_a_long_log_starts_at_a_whole_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(LOG_FILE);
        let log: String = (0..1000).map(|i| format!("line number {i}\n")).collect();
        std::fs::write(&file, &log).unwrap();
        let tail = read_tail(&file, 100);
        assert!(tail.starts_with("line number "), "{tail:?}");
        assert!(tail.ends_with("line number 999\n"));
        assert!(tail.len() <= 100);
        assert_eq!(
            read_tail(&file, 1_000_000),
            log,
            "a short file is read whole"
        );
        assert_eq!(read_tail(&dir.path().join("none"), 100), "");
    }
}
