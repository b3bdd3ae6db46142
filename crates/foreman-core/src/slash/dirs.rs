//! [`SlashDirs`]: the folders skills and commands are looked for in.

use std::path::PathBuf;

/// Where skills and commands are looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlashDirs {
    /// The workspace root: its `.foreman/`, `.claude/` and `.agents/` folders.
    pub workspace: PathBuf,
    /// The user's home folder: `~/.claude/` and `~/.agents/`.
    pub home: Option<PathBuf>,
    /// Foreman's user-level folder (`~/.config/dev.foreman.app`): its `skills/` and `commands/`.
    pub config_dir: Option<PathBuf>,
}

impl SlashDirs {
    /// The folders of `workspace` with the user's home from the environment and Foreman's
    /// config folder `config_dir`.
    pub fn for_user(workspace: PathBuf, config_dir: Option<PathBuf>) -> Self {
        Self {
            workspace,
            home: std::env::var_os("HOME")
                .or_else(|| std::env::var_os("USERPROFILE"))
                .map(PathBuf::from)
                .filter(|p| p.is_absolute()),
            config_dir,
        }
    }
}
