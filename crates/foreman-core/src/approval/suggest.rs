//! The rule an "Always allow" on a call would add, for the user to review or edit: the
//! narrowest rule that is still useful.
//!
//! For a command, the program and its subcommand (`cargo test *`, `npm run build *`), or the
//! exact command when its first argument is not a subcommand (`rm notes.txt`); never a rule that
//! ends inside an argument. For a file change, the file's folder; for a fetch, the host; for
//! anything else, the tool.

use super::facts::{ActionClass, CallFacts};
use super::shell::program_index;

/// Subcommands that name what they run next (`npm run build`): the rule keeps that name too.
const RUNNERS: [&str; 5] = ["run", "exec", "x", "dlx", "run-script"];

/// The rule for `call`'s first command (or its path, host or tool); `None` when no rule can
/// allow it (a command line that is not plain).
pub fn suggest_rule(call: &CallFacts) -> Option<String> {
    if let Some(line) = &call.shell {
        if !line.is_plain() {
            return None;
        }
        return line
            .commands
            .first()
            .and_then(|words| command_rule(&call.tool, words));
    }
    if let Some(path) = &call.path {
        let tool = if call.class == ActionClass::Edit {
            "edit"
        } else {
            call.tool.as_str()
        };
        return Some(match path.rfind('/') {
            Some(slash) => format!("{tool}({}/**)", &path[..slash]),
            None => format!("{tool}({path})"),
        });
    }
    if let Some(host) = &call.host {
        return Some(format!("{}(domain:{host})", call.tool));
    }
    Some(call.tool.clone())
}

/// The rule for one command of a line, given as its words.
pub(super) fn command_rule(tool: &str, words: &[String]) -> Option<String> {
    let at = program_index(words)?;
    let mut kept: Vec<String> = words[..=at].iter().map(|w| quote(w)).collect();
    let rest = &words[at + 1..];
    let Some(first) = rest.first() else {
        return Some(format!("{tool}({} *)", kept.join(" ")));
    };
    if !is_name(first) {
        let exact: Vec<String> = words.iter().map(|w| quote(w)).collect();
        return Some(format!("{tool}({})", exact.join(" ")));
    }
    kept.push(first.clone());
    if RUNNERS.contains(&first.as_str())
        && let Some(script) = rest.get(1).filter(|next| is_name(next))
    {
        kept.push(script.clone());
    }
    Some(format!("{tool}({} *)", kept.join(" ")))
}

/// A subcommand or script name: lower-case letters first, then letters, digits, `-`, `_`, `:`.
fn is_name(word: &str) -> bool {
    let mut chars = word.chars();
    word.len() <= 40
        && chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
}

/// `word` written so that a rule's quote removal gives it back.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%^*".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::shell::ShellLine;
    use super::*;

    fn bash(line: &str) -> CallFacts {
        CallFacts::command("bash", ShellLine::parse_lexical(line))
    }

    #[test]
    fn suggestions_stop_at_a_word() {
        for (line, rule) in [
            ("cargo test --workspace", Some("bash(cargo test *)")),
            ("echo hello", Some("bash(echo hello *)")),
            ("npm run build -- --watch", Some("bash(npm run build *)")),
            ("git status", Some("bash(git status *)")),
            ("ls", Some("bash(ls *)")),
            ("rm notes.txt", Some("bash(rm notes.txt)")),
            ("git -C sub status", Some("bash(git -C sub status)")),
            (
                "RUST_LOG=debug cargo run",
                Some("bash(RUST_LOG=debug cargo run *)"),
            ),
            (
                "echo \"it's here\" > out.txt",
                Some("bash(echo 'it'\\''s here')"),
            ),
            ("echo $(id)", None),
        ] {
            assert_eq!(suggest_rule(&bash(line)).as_deref(), rule, "{line}");
        }
    }
}
