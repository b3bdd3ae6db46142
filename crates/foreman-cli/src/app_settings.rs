//! What `exec` and `rewind` take from the desktop app's settings (`settings.json` in its config
//! folder), so a session started from the command line keeps and hides what the app's would:
//! the sandbox's hidden paths (`hidden.rs`) and what checkpoints keep.

use std::path::Path;

use foreman_core::checkpoints::Coverage;
use foreman_core::checkpoints::coverage::DEFAULT_EXCLUDED;
use serde_json::Value;

/// The app's settings file as JSON; `None` when there is none. A damaged file is an error that
/// names it.
pub fn read(file: &Path) -> Result<Option<Value>, String> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("the settings file {} is damaged: {e}", file.display()))
}

/// The app's settings, from its config folder.
pub fn read_app() -> Result<Option<Value>, String> {
    match crate::app_config_dir() {
        Some(dir) => read(&dir.join("settings.json")),
        None => Ok(None),
    }
}

/// What checkpoints keep, as the app's Settings › Checkpoints say (the defaults without them).
pub fn coverage(settings: Option<&Value>) -> Result<Coverage, String> {
    let get = |key: &str| settings.and_then(|s| s.get(key));
    let max_mib = match get("checkpoint_max_file_mib") {
        None => 10,
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or("checkpoint_max_file_mib in the settings file is not a number")?,
    };
    let keep_ignored = match get("checkpoint_keep_ignored") {
        None => true,
        Some(v) => v
            .as_bool()
            .ok_or("checkpoint_keep_ignored in the settings file is not true or false")?,
    };
    let excluded = match get("checkpoint_excluded_folders") {
        None => DEFAULT_EXCLUDED.iter().map(|s| (*s).to_owned()).collect(),
        Some(v) => serde_json::from_value::<Vec<String>>(v.clone()).map_err(|e| {
            format!("checkpoint_excluded_folders in the settings file is not a list of names: {e}")
        })?,
    };
    Ok(Coverage::from_settings(max_mib, keep_ignored, excluded))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn coverage_follows_the_apps_settings_and_names_a_bad_value() {
        assert_eq!(coverage(None).unwrap(), Coverage::default());
        let off = json!({"checkpoint_keep_ignored": false, "checkpoint_max_file_mib": 2});
        let off = coverage(Some(&off)).unwrap();
        assert_eq!((off.max_file_bytes, off.ignored), (2 << 20, None));
        let list = json!({"checkpoint_excluded_folders": ["out"]});
        let list = coverage(Some(&list)).unwrap();
        assert_eq!(list.ignored.unwrap().excluded, vec!["out".to_owned()]);
        let bad = json!({"checkpoint_keep_ignored": "yes"});
        assert!(
            coverage(Some(&bad))
                .unwrap_err()
                .contains("checkpoint_keep_ignored")
        );
    }
}
