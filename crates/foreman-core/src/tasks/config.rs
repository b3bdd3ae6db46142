//! What a repository says about its tasks, in `.foreman/worktree.toml`:
//!
//! ```toml
//! setup = ["npm ci"]          # run once in a new worktree, confined, with the network on
//! copy = [".env", "config/*.local.json"]  # ignored files a task needs, copied from the checkout
//! check = "npm test"          # what the merge queue runs before anything lands
//! run = "npm run dev"         # what the task's Run button starts
//! ports = 10                  # a block of ports per task; the first is FOREMAN_PORT
//! ```
//!
//! Every key is optional; a missing file is an empty configuration.

use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use super::error::TaskError;

/// Where the file lives in a repository.
pub const CONFIG_FILE: &str = ".foreman/worktree.toml";

/// The first port handed to tasks.
pub const FIRST_PORT: u16 = 41_000;

/// A repository's task configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskConfig {
    #[serde(default)]
    pub setup: Vec<String>,
    #[serde(default)]
    pub copy: Vec<String>,
    pub check: Option<String>,
    pub run: Option<String>,
    /// How many ports each task gets (0: none).
    #[serde(default)]
    pub ports: u16,
}

impl TaskConfig {
    /// Reads `.foreman/worktree.toml` under `root` (an empty configuration when there is none).
    pub fn load(root: &Path) -> Result<Self, TaskError> {
        let path = root.join(CONFIG_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(TaskError::io("read", path)(e)),
        };
        Self::parse(&text)
    }

    pub fn parse(text: &str) -> Result<Self, TaskError> {
        let config: Self = toml::from_str(text).map_err(|e| TaskError::BadConfig(e.to_string()))?;
        if let Some(bad) = config.copy.iter().find(|p| !is_inside(p)) {
            return Err(TaskError::BadConfig(format!(
                "copy pattern {bad:?} reaches outside the repository"
            )));
        }
        Ok(config)
    }
}

/// A relative path or pattern that stays inside the folder it is taken from.
fn is_inside(pattern: &str) -> bool {
    let path = Path::new(pattern);
    !pattern.is_empty()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Copies the files under `from` that match `patterns` to the same places under `to` (files
/// already there are left alone). Returns the relative paths copied.
pub fn copy_files(from: &Path, to: &Path, patterns: &[String]) -> Result<Vec<PathBuf>, TaskError> {
    let mut copied = Vec::new();
    for pattern in patterns {
        let glob = globset::Glob::new(pattern)
            .map_err(|e| TaskError::BadConfig(format!("copy pattern {pattern:?}: {e}")))?
            .compile_matcher();
        // Walk only from the pattern's literal folder, and only as deep as it reaches.
        let literal: PathBuf = Path::new(pattern)
            .components()
            .take_while(|c| {
                !c.as_os_str()
                    .to_string_lossy()
                    .contains(['*', '?', '[', '{'])
            })
            .collect();
        let (start, depth) = if literal.as_os_str() == pattern.as_str() {
            (
                literal.parent().map(Path::to_path_buf).unwrap_or_default(),
                1,
            )
        } else if pattern.contains("**") {
            (literal, usize::MAX)
        } else {
            let below = Path::new(pattern).components().count() - literal.components().count();
            (literal, below)
        };
        let walk = ignore::WalkBuilder::new(from.join(&start))
            .standard_filters(false)
            .max_depth(Some(depth))
            .filter_entry(|e| e.file_name() != ".git")
            .build();
        for entry in walk.flatten() {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let Ok(rel) = entry.path().strip_prefix(from) else {
                continue;
            };
            if !glob.is_match(rel) {
                continue;
            }
            let dest = to.join(rel);
            if dest.exists() {
                continue;
            }
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent).map_err(TaskError::io("create", parent))?;
            }
            std::fs::copy(entry.path(), &dest).map_err(TaskError::io("copy", entry.path()))?;
            copied.push(rel.to_path_buf());
        }
    }
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_gives_setup_copy_check_run_and_ports() {
        let config = TaskConfig::parse(
            "setup = [\"npm ci\"]\ncopy = [\".env\"]\ncheck = \"npm test\"\nrun = \"npm start\"\nports = 5\n",
        )
        .unwrap();
        assert_eq!(config.setup, vec!["npm ci"]);
        assert_eq!(config.check.as_deref(), Some("npm test"));
        assert_eq!(config.ports, 5);
        assert_eq!(TaskConfig::parse("").unwrap(), TaskConfig::default());
    }

    #[test]
    fn a_bad_file_says_what_is_wrong() {
        let e = TaskConfig::parse("chek = \"x\"").unwrap_err().to_string();
        assert!(e.contains("chek"), "{e}");
        let e = TaskConfig::parse("copy = [\"../secrets\"]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("outside the repository"), "{e}");
        let e = TaskConfig::parse("copy = [\"/etc/passwd\"]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("outside"), "{e}");
    }

    #[test]
    fn ignored_files_are_copied_by_pattern() {
        let from = tempfile::tempdir().unwrap();
        let to = tempfile::tempdir().unwrap();
        std::fs::write(from.path().join(".env"), "KEY=1").unwrap();
        std::fs::create_dir_all(from.path().join("config/deep")).unwrap();
        std::fs::write(from.path().join("config/a.local.json"), "{}").unwrap();
        std::fs::write(from.path().join("config/deep/b.local.json"), "{}").unwrap();
        std::fs::write(to.path().join(".env"), "KEEP").unwrap();
        let mut copied = copy_files(
            from.path(),
            to.path(),
            &[
                ".env".into(),
                "config/*.local.json".into(),
                "config/**/b.*".into(),
            ],
        )
        .unwrap();
        copied.sort();
        assert_eq!(
            copied,
            vec![
                PathBuf::from("config/a.local.json"),
                PathBuf::from("config/deep/b.local.json")
            ]
        );
        assert_eq!(
            std::fs::read_to_string(to.path().join(".env")).unwrap(),
            "KEEP"
        );
    }
}
