//! The paths `exec` hides from confined commands: the desktop app's list (Settings › Sandbox,
//! in its `settings.json`, or the defaults when there is none), the app's and the CLI's own
//! data and config directories, and `--hide` paths.

use std::path::{Path, PathBuf};

use foreman_core::sandbox::hidden;
use foreman_protocol::HiddenPath;

/// The hidden paths, absolute; `db` is the session database (its folder is hidden).
pub fn paths(db: &Path, extra: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let config = crate::app_config_dir();
    let list = match config.as_ref().map(|dir| dir.join("settings.json")) {
        Some(file) => app_list(&file)?,
        None => hidden::defaults(),
    };
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let mut own: Vec<PathBuf> = db.parent().map(Path::to_path_buf).into_iter().collect();
    own.extend(config);
    own.extend(
        crate::default_database()
            .ok()
            .and_then(|d| d.parent().map(Path::to_path_buf)),
    );
    own.extend(extra.iter().map(|p| cwd.join(p)));
    Ok(hidden::resolve(&list, &own))
}

/// The list in the app's settings file, merged with the defaults; the defaults when the file
/// or the list is not there. A damaged file is an error that names it.
fn app_list(file: &Path) -> Result<Vec<HiddenPath>, String> {
    let Some(settings) = crate::app_settings::read(file)? else {
        return Ok(hidden::defaults());
    };
    match settings.get("sandbox_hidden") {
        None => Ok(hidden::defaults()),
        Some(list) => serde_json::from_value::<Vec<HiddenPath>>(list.clone())
            .map(|stored| hidden::merged(&stored))
            .map_err(|e| {
                format!(
                    "the sandbox's hidden paths in {} are damaged: {e}",
                    file.display()
                )
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_apps_list_is_read_and_merged_and_a_damaged_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        assert_eq!(app_list(&file).unwrap(), hidden::defaults());
        std::fs::write(
            &file,
            r#"{"sandbox_hidden":[{"path":"~/.ssh","enabled":false},{"path":"/srv/s","enabled":true}]}"#,
        )
        .unwrap();
        let list = app_list(&file).unwrap();
        assert!(list.iter().any(|e| e.path == "~/.ssh" && !e.enabled));
        assert!(list.iter().any(|e| e.path == "/srv/s" && e.enabled));
        assert!(list.iter().any(|e| e.path == "~/.aws" && e.enabled));
        std::fs::write(&file, r#"{"sandbox_hidden": 3}"#).unwrap();
        assert!(app_list(&file).unwrap_err().contains("settings.json"));
    }
}
