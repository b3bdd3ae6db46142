//! [`Slash`]: a workspace's commands and skills, loaded, with what is wrong with their files, and
//! the `/` menu they make ([`Slash::catalog`]).

use super::builtins::BuiltIn;
use super::commands::{self, Command};
use super::dirs::SlashDirs;
use super::skills;
use crate::builtin_tools::skill::Skill;
use crate::protocol::{SlashCatalog, SlashEntry, SlashKind};

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
