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
mod catalog;
pub mod commands;
mod dirs;
mod error;
pub mod expand;
pub mod front_matter;
mod locations;
pub mod skills;
#[cfg(test)]
pub(crate) mod testing;
pub mod tool_names;

pub use self::catalog::Slash;
pub use self::commands::Command;
pub use self::dirs::SlashDirs;
pub use self::error::SlashError;
pub use self::expand::Expanded;
pub use self::locations::{Found, is_slash_name};
use crate::protocol::SlashCatalog;

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
mod tests {
    use super::testing::{Dirs, write};
    use super::*;
    use crate::protocol::SlashKind;

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
