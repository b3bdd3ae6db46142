//! Claude Code compatible skills and custom commands, and the `/` menu.
//!
//! - [`catalog`]: the menu's entries (built-ins, then commands, then skills) and what could not
//!   be loaded.
//! - [`expand`]: a message that starts with a command's or a skill's `/name` as the model reads
//!   it ([`Expanded`]).
//! - [`skills`] and [`commands`] find them ([`locations`] says where, and which wins);
//!   [`front_matter`] reads their YAML front matter; [`arguments`] fills `$ARGUMENTS` and `$1`;
//!   [`builtins`] are Foreman's own entries; [`tool_names`] maps Claude Code's tool names to ours.
//!
//! A command's or a skill's `allowed-tools` **limits the tools the model is offered** while the
//! task it starts runs; it never lets a call run without the approval it would need otherwise
//! (Claude Code reads it as a permission; here it is only ever the safe half of that).

pub mod arguments;
pub mod builtins;
pub mod commands;
mod error;
pub mod expand;
pub mod front_matter;
mod locations;
pub mod skills;
pub mod tool_names;

use std::path::PathBuf;

use self::builtins::BuiltIn;
pub use self::commands::Command;
pub use self::error::SlashError;
pub use self::expand::Expanded;
use self::locations::location_dirs;
pub use self::locations::{Found, is_slash_name};
pub use self::skills::Skill;
use crate::protocol::{SlashCatalog, SlashEntry, SlashKind};

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

/// The skills and commands of a workspace, loaded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Slash {
    pub commands: Vec<Command>,
    pub skills: Vec<Skill>,
    /// What could not be loaded, or is hidden by another of the same name.
    pub warnings: Vec<String>,
}

impl Slash {
    /// Reads the commands and skills of `dirs`.
    pub fn load(dirs: &SlashDirs) -> Self {
        let commands = commands::find_commands(dirs);
        let skills = skills::find_skills(dirs);
        let mut warnings = commands.warnings;
        warnings.extend(skills.warnings);
        for command in &commands.items {
            if BuiltIn::is_builtin(&command.name) {
                warnings.push(format!(
                    "{}: /{} is Foreman's own, so this command does not run",
                    command.source, command.name
                ));
            }
            if let Some(skill) = skills.items.iter().find(|s| s.name == command.name) {
                warnings.push(format!(
                    "/{} is both the command {} and the skill {}: /{} runs the command",
                    command.name, command.source, skill.source, command.name
                ));
            }
        }
        for skill in &skills.items {
            if BuiltIn::is_builtin(&skill.name) {
                warnings.push(format!(
                    "{}: /{} is Foreman's own, so typing it does not run this skill (the model \
                     can still load it)",
                    skill.source, skill.name
                ));
            }
        }
        Self {
            commands: commands.items,
            skills: skills.items,
            warnings,
        }
    }

    /// The `/` menu: built-ins, then commands, then skills, each group by name.
    pub fn catalog(&self) -> SlashCatalog {
        let mut commands: Vec<SlashEntry> = self
            .commands
            .iter()
            .map(|c| SlashEntry {
                name: c.name.clone(),
                kind: SlashKind::Command,
                description: c.description.clone(),
                argument_hint: c.argument_hint.clone(),
                source: Some(c.source.clone()),
            })
            .collect();
        commands.sort_by(|a, b| a.name.cmp(&b.name));
        let mut skills: Vec<SlashEntry> = self
            .skills
            .iter()
            .map(|s| SlashEntry {
                name: s.name.clone(),
                kind: SlashKind::Skill,
                description: s.description.clone(),
                argument_hint: None,
                source: Some(s.source.clone()),
            })
            .collect();
        skills.sort_by(|a, b| a.name.cmp(&b.name));
        SlashCatalog {
            entries: BuiltIn::ALL
                .into_iter()
                .map(BuiltIn::entry)
                .chain(commands)
                .chain(skills)
                .collect(),
            warnings: self.warnings.clone(),
        }
    }

    /// The skills sorted by name (as the system prompt lists them).
    pub fn skills_by_name(&self) -> Vec<&Skill> {
        let mut skills: Vec<&Skill> = self.skills.iter().collect();
        skills.sort_by(|a, b| a.name.cmp(&b.name));
        skills
    }
}

/// The `/` menu of `dirs`, with what could not be loaded.
pub fn catalog(dirs: &SlashDirs) -> SlashCatalog {
    Slash::load(dirs).catalog()
}

/// `text` as the model reads it when it starts with a command's or a skill's `/name` (see
/// [`expand::Expanded`]); `Ok(None)` for any other message.
pub fn expand(text: &str, dirs: &SlashDirs) -> Result<Option<Expanded>, SlashError> {
    if expand::split_name(text).is_none() {
        return Ok(None);
    }
    Slash::load(dirs).expand(text, &dirs.workspace)
}

#[cfg(test)]
pub(crate) mod testing {
    //! Real folders for the tests: a workspace, a home and a config folder.

    use std::path::{Path, PathBuf};

    use super::SlashDirs;

    pub(crate) struct Dirs {
        _temp: tempfile::TempDir,
        pub(crate) ws: PathBuf,
        pub(crate) home: PathBuf,
        pub(crate) config: PathBuf,
    }

    impl Dirs {
        pub(crate) fn new() -> Self {
            let temp = tempfile::tempdir().unwrap();
            let root = temp.path().canonicalize().unwrap();
            let [ws, home, config] = ["ws", "home", "config"].map(|d| root.join(d));
            for dir in [&ws, &home, &config] {
                std::fs::create_dir_all(dir).unwrap();
            }
            Self {
                _temp: temp,
                ws,
                home,
                config,
            }
        }

        pub(crate) fn dirs(&self) -> SlashDirs {
            SlashDirs {
                workspace: self.ws.clone(),
                home: Some(self.home.clone()),
                config_dir: Some(self.config.clone()),
            }
        }
    }

    pub(crate) fn write(root: &Path, relative: &str, text: &str) {
        let path = root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{Dirs, write};
    use super::*;

    #[test]
    fn the_catalog_lists_builtins_then_commands_then_skills() {
        let d = Dirs::new();
        write(
            &d.ws,
            ".claude/commands/review.md",
            "---\ndescription: Review\nargument-hint: [pr]\n---\n$1\n",
        );
        write(&d.home, ".claude/commands/a-first.md", "Mine.\n");
        write(
            &d.ws,
            ".claude/skills/zeta/SKILL.md",
            "---\ndescription: Z\n---\n",
        );
        write(
            &d.home,
            ".claude/skills/alpha/SKILL.md",
            "---\ndescription: A\n---\n",
        );
        write(&d.ws, ".claude/skills/bad/SKILL.md", "no front matter\n");
        write(&d.ws, ".claude/commands/compact.md", "Mine.\n");
        let catalog = catalog(&d.dirs());
        let names: Vec<_> = catalog
            .entries
            .iter()
            .map(|e| (e.kind, e.name.as_str()))
            .collect();
        use SlashKind::*;
        assert_eq!(
            names,
            [
                (BuiltIn, "compact"),
                (BuiltIn, "clear"),
                (BuiltIn, "model"),
                (BuiltIn, "mode"),
                (BuiltIn, "retry"),
                (Command, "a-first"),
                (Command, "compact"),
                (Command, "review"),
                (Skill, "alpha"),
                (Skill, "zeta"),
            ]
        );
        let review = &catalog.entries[7];
        assert_eq!(review.argument_hint.as_deref(), Some("[pr]"));
        assert_eq!(review.source.as_deref(), Some(".claude/commands/review.md"));
        assert_eq!(
            catalog.entries[8].source.as_deref(),
            Some("~/.claude/skills/alpha/SKILL.md")
        );
        assert_eq!(
            catalog.warnings,
            [
                ".claude/skills/bad/SKILL.md: no front matter: a skill starts with --- name: … \
                 description: … ---",
                ".claude/commands/compact.md: /compact is Foreman's own, so this command does not run",
            ]
        );
    }

    #[test]
    fn expand_reads_the_files_now() {
        let d = Dirs::new();
        assert_eq!(expand("/usr/bin/env", &d.dirs()).unwrap(), None);
        write(&d.ws, ".foreman/commands/hi.md", "Say hi to $ARGUMENTS.\n");
        let out = expand("/hi Ann", &d.dirs()).unwrap().unwrap();
        assert_eq!(out.text, "Say hi to Ann.");
        assert!(matches!(
            expand("/bye", &d.dirs()),
            Err(SlashError::Unknown { .. })
        ));
    }
}
