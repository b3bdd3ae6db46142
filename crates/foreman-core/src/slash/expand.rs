//! What a message that starts with `/name` becomes for the model ([`Expanded`]).
//!
//! - A command: its prompt with the arguments filled in ([`super::arguments`]); a `$N` the user
//!   did not give refuses the message. `@path` mentions in the prompt attach those workspace
//!   files as the composer's do. A line like ``!`git status` `` (which Claude Code runs before
//!   sending the prompt) is **not run**: it stays in the text and the model is told to run it
//!   with `bash` if it needs its output, so it goes through the usual approval.
//! - A skill (`/pdf fill the form`): the model is told to use it, with what the `skill` tool
//!   gives and the user's words.
//!
//! A built-in's name, a path (`/usr/bin/env`) or a word that cannot be a name is not expanded.

use super::arguments::{fill, highest_position};
use super::catalog::Slash;
use super::error::SlashError;
use super::locations::is_slash_name;
use crate::attachments::mention;
use crate::protocol::{AttachInput, SlashKind};

use super::builtins::BuiltIn;

/// A `/name` message as the model reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expanded {
    /// The command's or skill's name.
    pub name: String,
    pub kind: SlashKind,
    /// Its file, as the user would write it.
    pub source: String,
    /// What the model is given.
    pub text: String,
    /// The files its `@path` mentions attach.
    pub attach: Vec<AttachInput>,
    /// The model its front matter asks for.
    pub model: Option<String>,
    /// Its `allowed-tools`, as written (Claude Code's names; see
    /// [`super::tool_names::ours_from_allowed`]); empty: every tool.
    pub allowed_tools: Vec<String>,
}

/// The note after a command that has Claude Code's ``!`command` `` lines.
const BANG_NOTE: &str = "[Note from Foreman: lines written as !`command` above are commands that \
Claude Code runs before sending this prompt. Foreman has not run them: run them with `bash` if \
you need their output.]";

/// The name typed after `/` and the rest, when `text` starts like a command; `None` for a path,
/// an empty name or a name with other characters.
pub fn split_name(text: &str) -> Option<(&str, &str)> {
    let rest = text.trim_start().strip_prefix('/')?;
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let name = &rest[..end];
    is_slash_name(name).then(|| (name, rest[end..].trim()))
}

impl Slash {
    /// `text` expanded when it starts with a command's or a skill's `/name`; `Ok(None)` when it
    /// is not such a message (a built-in, a path, plain text); an error when the name is unknown
    /// or an argument is missing. `workspace` is where `@path` mentions are looked for.
    pub fn expand(
        &self,
        text: &str,
        workspace: &std::path::Path,
    ) -> Result<Option<Expanded>, SlashError> {
        let Some((name, args)) = split_name(text) else {
            return Ok(None);
        };
        if BuiltIn::is_builtin(name) {
            return Ok(None);
        }
        if let Some(command) = self.command(name) {
            let needed = highest_position(&command.body);
            let given = super::arguments::words(args).len();
            if needed > given {
                return Err(SlashError::MissingArgument {
                    name: command.name.clone(),
                    hint: command.argument_hint.clone(),
                    needed,
                    given,
                });
            }
            let mut prompt = fill(&command.body, args);
            if prompt.contains("!`") {
                prompt = format!("{}\n\n{BANG_NOTE}", prompt.trim_end());
            }
            let attach = mentions(&prompt, workspace);
            return Ok(Some(Expanded {
                name: command.name.clone(),
                kind: SlashKind::Command,
                source: command.source.clone(),
                text: prompt.trim().to_owned(),
                attach,
                model: command.model.clone(),
                allowed_tools: command.allowed_tools.clone(),
            }));
        }
        if let Some(skill) = self.skills.iter().find(|s| s.name == name) {
            let mut text = format!(
                "The user asks you to use the skill `{}` for this request. Here it is, as the \
                 `skill` tool gives it:\n\n{}",
                skill.name,
                skill.load_text()
            );
            if !args.is_empty() {
                text.push_str(&format!("\n\nThe user's request: {args}"));
            }
            return Ok(Some(Expanded {
                name: skill.name.clone(),
                kind: SlashKind::Skill,
                source: skill.source.clone(),
                text,
                attach: Vec::new(),
                model: None,
                allowed_tools: skill.allowed_tools.clone(),
            }));
        }
        Err(SlashError::Unknown {
            name: name.to_owned(),
            known: self.names(),
            warnings: self.warnings.len(),
        })
    }

    /// The command `name` names: by its whole name, or by its last part when one namespaced
    /// command alone has it (`/lint` for `frontend:lint`, as Claude Code now names them).
    fn command(&self, name: &str) -> Option<&super::commands::Command> {
        if let Some(command) = self.commands.iter().find(|c| c.name == name) {
            return Some(command);
        }
        let mut by_leaf = self.commands.iter().filter(|c| c.leaf() == name);
        match (by_leaf.next(), by_leaf.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }

    /// Every command's and skill's name, with its `/`.
    fn names(&self) -> Vec<String> {
        self.commands
            .iter()
            .map(|c| format!("/{}", c.name))
            .chain(self.skills.iter().map(|s| format!("/{}", s.name)))
            .collect()
    }
}

/// The `@path` mentions in `text` that name something in `workspace` (a file, a line range of
/// one, or a folder), each once, in order.
fn mentions(text: &str, workspace: &std::path::Path) -> Vec<AttachInput> {
    let mut found: Vec<AttachInput> = Vec::new();
    for (at, _) in text.match_indices('@') {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| !(c.is_whitespace() || "([{\"'`".contains(c))) {
            continue;
        }
        let raw = text[at + 1..]
            .split(|c: char| c.is_whitespace() || "\"'`)]}".contains(c))
            .next()
            .unwrap_or_default()
            .trim_end_matches(['.', ',', ';', '!', '?', ':']);
        if raw.is_empty() || raw.starts_with('~') || std::path::Path::new(raw).is_absolute() {
            continue;
        }
        let path = mention::parse(raw).path;
        let input = AttachInput::Path {
            path: raw.to_owned(),
        };
        if workspace.join(path).exists() && !found.contains(&input) {
            found.push(input);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slash::testing::{Dirs, write};

    fn slash(d: &Dirs) -> Slash {
        Slash::load(&d.dirs())
    }

    #[test]
    fn a_command_gets_its_arguments_and_mentions() {
        let d = Dirs::new();
        write(
            &d.ws,
            ".claude/commands/review.md",
            "---\nargument-hint: [pr-number]\nmodel: m1\nallowed-tools: Read, Bash(gh:*)\n---\nReview PR #$1 against @docs/STYLE.md and @src/a.rs:1-2, not @nowhere.md or me@example.com.\n",
        );
        write(&d.ws, "docs/STYLE.md", "style\n");
        write(&d.ws, "src/a.rs", "fn a() {}\n");
        let out = slash(&d).expand("/review 42", &d.ws).unwrap().unwrap();
        assert_eq!(
            out.text,
            "Review PR #42 against @docs/STYLE.md and @src/a.rs:1-2, not @nowhere.md or \
             me@example.com."
        );
        assert_eq!(
            out.attach,
            [
                AttachInput::Path {
                    path: "docs/STYLE.md".into()
                },
                AttachInput::Path {
                    path: "src/a.rs:1-2".into()
                },
            ]
        );
        assert_eq!(out.model.as_deref(), Some("m1"));
        assert_eq!(out.allowed_tools, ["Read", "Bash(gh:*)"]);
        assert_eq!(
            (out.kind, out.source.as_str()),
            (SlashKind::Command, ".claude/commands/review.md")
        );
    }

    #[test]
    fn a_missing_argument_is_refused_with_the_hint() {
        let d = Dirs::new();
        write(
            &d.ws,
            ".claude/commands/review.md",
            "---\nargument-hint: [pr-number]\n---\nReview $1.\n",
        );
        write(&d.ws, ".claude/commands/pair.md", "Compare $1 with $2.\n");
        let s = slash(&d);
        let err = s.expand("/review", &d.ws).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/review needs an argument: [pr-number]. Nothing was sent."
        );
        let err = s.expand("/pair a", &d.ws).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/pair needs 2 arguments ($1 to $2), 1 given. Nothing was sent."
        );
        assert_eq!(
            s.expand("/pair a 'b c'", &d.ws).unwrap().unwrap().text,
            "Compare a with b c."
        );
    }

    #[test]
    fn namespaced_commands_answer_to_both_names() {
        let d = Dirs::new();
        write(
            &d.ws,
            ".claude/commands/frontend/lint.md",
            "Lint $ARGUMENTS.\n",
        );
        let s = slash(&d);
        assert_eq!(
            s.expand("/frontend:lint ui", &d.ws).unwrap().unwrap().text,
            "Lint ui."
        );
        assert_eq!(
            s.expand("/lint ui", &d.ws).unwrap().unwrap().name,
            "frontend:lint"
        );
    }

    #[test]
    fn bang_lines_are_not_run_and_the_model_is_told() {
        let d = Dirs::new();
        write(
            &d.ws,
            ".claude/commands/commit.md",
            "Status: !`git status`\nWrite a commit.\n",
        );
        let out = slash(&d).expand("/commit", &d.ws).unwrap().unwrap();
        assert!(
            out.text
                .starts_with("Status: !`git status`\nWrite a commit.\n\n[Note from Foreman")
        );
        assert!(out.text.contains("Foreman has not run them"));
    }

    #[test]
    fn a_skill_is_given_with_the_request() {
        let d = Dirs::new();
        write(
            &d.home,
            ".claude/skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: PDFs\n---\nUse pypdf.\n",
        );
        let out = slash(&d)
            .expand("/pdf fill form.pdf", &d.ws)
            .unwrap()
            .unwrap();
        assert_eq!(out.kind, SlashKind::Skill);
        assert!(
            out.text
                .starts_with("The user asks you to use the skill `pdf`"),
            "{}",
            out.text
        );
        assert!(
            out.text
                .contains("Use pypdf.\n\nThe user's request: fill form.pdf"),
            "{}",
            out.text
        );
    }

    #[test]
    fn other_messages_are_left_alone_and_unknown_names_refused() {
        let d = Dirs::new();
        write(&d.ws, ".claude/commands/review.md", "Review.\n");
        let s = slash(&d);
        for text in [
            "/usr/bin/env is odd",
            "/compact",
            "plain text",
            "/ spaced",
            "/a*b",
        ] {
            assert_eq!(s.expand(text, &d.ws).unwrap(), None, "{text}");
        }
        let err = s.expand("/revew 1", &d.ws).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/revew is not a command or a skill here (there are /review). Nothing was sent."
        );
    }
}
