//! Why a `/name` message is not sent.

use thiserror::Error;

/// Why a `/name` message is refused; the text says what to do, for the user.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SlashError {
    #[error("/{name} is not a command or a skill here ({}).{} Nothing was sent.", known_list(.known), warned(*.warnings))]
    Unknown {
        name: String,
        known: Vec<String>,
        /// How many files could not be loaded.
        warnings: usize,
    },
    #[error("/{name} needs {}. Nothing was sent.", needs(.hint.as_deref(), *.needed, *.given))]
    MissingArgument {
        name: String,
        hint: Option<String>,
        needed: usize,
        given: usize,
    },
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        "there are none: commands are Markdown files in .claude/commands/, skills are folders \
         with a SKILL.md in .claude/skills/"
            .to_owned()
    } else {
        format!("there are {}", known.join(", "))
    }
}

fn warned(warnings: usize) -> String {
    match warnings {
        0 => String::new(),
        1 => " One file could not be loaded: the warnings of the `/` menu (or `foreman-cli slash list`) say why.".to_owned(),
        n => format!(" {n} files could not be loaded: the warnings of the `/` menu (or `foreman-cli slash list`) say why."),
    }
}

fn needs(hint: Option<&str>, needed: usize, given: usize) -> String {
    match (hint, needed) {
        (Some(hint), 1) => format!("an argument: {hint}"),
        (None, 1) => "an argument ($1)".to_owned(),
        (Some(hint), n) => format!("{n} arguments: {hint} ({given} given)"),
        (None, n) => format!("{n} arguments ($1 to ${n}), {given} given"),
    }
}
