//! Custom commands: Markdown prompts run with `/name args`, as Claude Code has them.
//!
//! They are found in the workspace's `.foreman/commands/` and `.claude/commands/`, then the
//! user's `<config dir>/commands/` and `~/.claude/commands/`; the first command of a name is
//! used. A file in a subfolder is namespaced with `:` (`frontend/lint.md` is
//! `/frontend:lint`). The front matter is optional: `description` (else the body's first line),
//! `argument-hint`, `allowed-tools` and `model`. A file whose front matter cannot be read is
//! reported and left out.

use std::path::{Path, PathBuf};

use super::dirs::SlashDirs;
use super::front_matter;
use super::locations::{Found, is_slash_name, location_dirs};
use super::skills::{allowed, one_line};

/// How deep subfolders of a `commands/` folder are searched.
const MAX_DEPTH: usize = 6;
/// The longest description taken from a body's first line.
const MAX_DESCRIPTION_CHARS: usize = 120;

/// One command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// `review`, `frontend:lint`.
    pub name: String,
    pub description: String,
    pub argument_hint: Option<String>,
    /// Its `allowed-tools`, as written (Claude Code's names).
    pub allowed_tools: Vec<String>,
    pub model: Option<String>,
    /// The file as the user would write it (`.claude/commands/review.md`).
    pub source: String,
    /// The prompt after the front matter.
    pub body: String,
}

impl Command {
    /// The last part of a namespaced name (`lint` of `frontend:lint`).
    pub fn leaf(&self) -> &str {
        self.name.rsplit(':').next().unwrap_or(&self.name)
    }
}

/// The commands of `dirs`, each name once, with what is wrong with the others.
pub fn find_commands(dirs: &SlashDirs) -> Found<Command> {
    let mut found = Found::default();
    for (root, shown_root) in location_dirs(dirs, "commands") {
        let mut files = Vec::new();
        collect(&root, &root, 0, &mut files);
        files.sort();
        for (relative, path) in files {
            let source = format!("{shown_root}/{relative}");
            let Some(stem) = relative.strip_suffix(".md") else {
                continue;
            };
            let name = stem.replace('/', ":");
            if !is_slash_name(&name) {
                found.warnings.push(format!(
                    "{source}: `/{name}` cannot be typed as a command: use letters, digits, `-`, \
                     `_` and `.` in its file and folder names"
                ));
                continue;
            }
            match read_command(&path, name.clone(), &source) {
                Ok(command) => found.add(name, source, command),
                Err(problem) => found.warnings.push(format!("{source}: {problem}")),
            }
        }
    }
    found
}

/// The `.md` files under `dir`, by their path relative to `root` with `/`.
fn collect(root: &Path, dir: &Path, depth: usize, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            if depth < MAX_DEPTH {
                collect(root, &path, depth + 1, out);
            }
        } else if path.extension().is_some_and(|e| e == "md")
            && let Ok(relative) = path.strip_prefix(root)
        {
            out.push((relative.to_string_lossy().replace('\\', "/"), path));
        }
    }
}

/// One command file, or what is wrong with it.
fn read_command(file: &Path, name: String, source: &str) -> Result<Command, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot be read: {e}"))?;
    let (front, body) =
        front_matter::split(&text).map_err(|e| format!("its front matter cannot be read: {e}"))?;
    let front = front.unwrap_or_default();
    let description = front
        .text("description")
        .map(|d| one_line(&d))
        .unwrap_or_else(|| first_line(body));
    Ok(Command {
        name,
        description,
        argument_hint: front.text("argument-hint").map(|h| one_line(&h)),
        allowed_tools: allowed(&front),
        model: front.text("model"),
        source: source.to_owned(),
        body: body.to_owned(),
    })
}

/// The body's first line with text, without a heading's `#`s, cut to a menu's width.
fn first_line(body: &str) -> String {
    let line = body
        .lines()
        .map(|l| l.trim().trim_start_matches('#').trim())
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    if line.chars().count() > MAX_DESCRIPTION_CHARS {
        let cut: String = line.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
        format!("{}…", cut.trim_end())
    } else {
        line.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slash::testing::{Dirs, write};

    #[test]
    fn front_matter_is_optional_and_folders_namespace() {
        let d = Dirs::new();
        write(
            &d.ws,
            ".claude/commands/review.md",
            "---\ndescription: Review a PR\nargument-hint: [pr-number]\nallowed-tools: Bash(gh pr:*), Read\nmodel: claude-haiku-4-5\n---\nReview PR $1.\n",
        );
        write(
            &d.ws,
            ".claude/commands/frontend/lint.md",
            "# Lint the frontend\n\nRun the linter.\n",
        );
        write(&d.ws, ".claude/commands/notes.txt", "not a command");
        write(
            &d.ws,
            ".claude/commands/broken.md",
            "---\ndescription: \"open\n---\nx\n",
        );
        let found = find_commands(&d.dirs());
        let names: Vec<_> = found.items.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["frontend:lint", "review"]);
        let lint = &found.items[0];
        assert_eq!(lint.description, "Lint the frontend");
        assert_eq!(lint.leaf(), "lint");
        assert_eq!(lint.source, ".claude/commands/frontend/lint.md");
        let review = &found.items[1];
        assert_eq!(review.argument_hint.as_deref(), Some("[pr-number]"));
        assert_eq!(review.allowed_tools, ["Bash(gh pr:*)", "Read"]);
        assert_eq!(review.model.as_deref(), Some("claude-haiku-4-5"));
        assert_eq!(review.body, "Review PR $1.\n");
        assert_eq!(found.warnings.len(), 1);
        assert!(
            found.warnings[0].starts_with(
                ".claude/commands/broken.md: its front matter cannot be read: line 2: the quoted"
            ),
            "{:?}",
            found.warnings
        );
    }

    #[test]
    fn the_workspaces_command_wins() {
        let d = Dirs::new();
        write(&d.home, ".claude/commands/deploy.md", "home\n");
        write(&d.ws, ".foreman/commands/deploy.md", "workspace\n");
        write(&d.ws, ".claude/commands/deploy.md", "claude\n");
        let found = find_commands(&d.dirs());
        assert_eq!(found.items.len(), 1);
        assert_eq!(found.items[0].body, "workspace\n");
        assert_eq!(
            found.warnings,
            [
                "`deploy` in .claude/commands/deploy.md is left out: .foreman/commands/deploy.md \
                 has the same name and is used",
                "`deploy` in ~/.claude/commands/deploy.md is left out: \
                 .foreman/commands/deploy.md has the same name and is used",
            ]
        );
    }

    #[test]
    fn a_long_first_line_is_cut() {
        let long = "word ".repeat(60);
        let text = first_line(&format!("\n\n## {long}\nmore"));
        assert_eq!(text.chars().count(), MAX_DESCRIPTION_CHARS);
        assert!(text.ends_with('…'));
    }
}
