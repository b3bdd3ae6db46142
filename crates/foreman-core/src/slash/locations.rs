//! Where skills and commands are looked for, in the order that decides which of two of the same
//! name is used, and how a file is named to the user (`.claude/commands/review.md`,
//! `~/.claude/skills/pdf/SKILL.md`).

use std::path::{Path, PathBuf};

use super::dirs::SlashDirs;

/// The folders holding `kind` (`skills` or `commands`), first the workspace's, then the user's,
/// each with how it is shown; a folder reached twice (a workspace that is the home folder) once.
pub(crate) fn location_dirs(dirs: &SlashDirs, kind: &str) -> Vec<(PathBuf, String)> {
    let mut tops: Vec<&str> = vec![".foreman", ".claude"];
    if kind == "skills" {
        tops.push(".agents");
    }
    let mut found: Vec<(PathBuf, String)> = tops
        .iter()
        .map(|top| (dirs.workspace.join(top).join(kind), format!("{top}/{kind}")))
        .collect();
    if let Some(config) = &dirs.config_dir {
        found.push((
            config.join(kind),
            format!("{}/{kind}", shown_user(dirs, config)),
        ));
    }
    if let Some(home) = &dirs.home {
        for top in tops.iter().filter(|t| **t != ".foreman") {
            found.push((home.join(top).join(kind), format!("~/{top}/{kind}")));
        }
    }
    let mut seen = Vec::new();
    found.retain(|(dir, _)| {
        let real = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        let new = !seen.contains(&real);
        seen.push(real);
        new
    });
    found
}

/// A folder of the user's, with `~` for the home folder.
fn shown_user(dirs: &SlashDirs, path: &Path) -> String {
    match dirs
        .home
        .as_deref()
        .and_then(|home| path.strip_prefix(home).ok())
    {
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// What a search found: the items, each name once (the first found), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found<T> {
    pub items: Vec<T>,
    pub warnings: Vec<String>,
    /// Each item's name and file, for the warning about a later one of the same name.
    seen: Vec<(String, String)>,
}

impl<T> Default for Found<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            warnings: Vec::new(),
            seen: Vec::new(),
        }
    }
}

impl<T> Found<T> {
    /// Adds `item` named `name` from `source`, unless one of that name came first.
    pub(crate) fn add(&mut self, name: String, source: String, item: T) {
        if let Some((_, first)) = self.seen.iter().find(|(n, _)| *n == name) {
            self.warnings.push(format!(
                "`{name}` in {source} is left out: {first} has the same name and is used"
            ));
            return;
        }
        self.seen.push((name, source));
        self.items.push(item);
    }
}

/// Whether `name` can be typed after `/`: letters, digits, `-`, `_`, `.` and `:` (a namespace),
/// not starting with `.` or `:`, at most 64 characters.
pub fn is_slash_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 64
        && !name.starts_with(['.', ':'])
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_comes_first_and_a_folder_counts_once() {
        let home = tempfile::tempdir().unwrap();
        let dirs = SlashDirs {
            workspace: home.path().to_path_buf(),
            home: Some(home.path().to_path_buf()),
            config_dir: Some(home.path().join(".config/dev.foreman.app")),
        };
        let shown: Vec<_> = location_dirs(&dirs, "skills")
            .into_iter()
            .map(|(_, shown)| shown)
            .collect();
        assert_eq!(
            shown,
            [
                ".foreman/skills",
                ".claude/skills",
                ".agents/skills",
                "~/.config/dev.foreman.app/skills"
            ]
        );
        let commands = location_dirs(&dirs, "commands");
        assert_eq!(commands.len(), 3);
    }

    #[test]
    fn names_that_can_be_typed() {
        for good in ["review", "frontend:lint", "pdf-2", "v1.2", "snake_case"] {
            assert!(is_slash_name(good), "{good}");
        }
        for bad in [
            "",
            "two words",
            "a/b",
            ".hidden",
            ":x",
            "a*b",
            &"x".repeat(65),
        ] {
            assert!(!is_slash_name(bad), "{bad}");
        }
    }
}
