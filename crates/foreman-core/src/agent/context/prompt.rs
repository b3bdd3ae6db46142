//! The system prompt: byte-stable for a session so provider prompt caches keep hitting.
//!
//! It holds the role, the working rules, the platform's shell conventions, the OS, the shell and
//! the workspace root, then the user's own rule file and the workspace root's
//! ([`crate::project_rules`]), each introduced by which file it is, then the skills' names and
//! descriptions ([`crate::slash`]), sorted by name. It is built once when the
//! session starts. What changes while a session lives (the date, the git branch and status) is
//! not here but in the session-context note (`session_context`), and nested rule files come with
//! tool results ([`crate::project_rules::NestedRules`]). Tool definitions travel separately in
//! the request.

use std::path::Path;

use crate::builtin_tools::bash::command_shell;
use crate::builtin_tools::skill::Skill;
use crate::project_rules::{RuleText, read_user_rules, rules_of_dir};

const ROLE: &str = "You are Foreman's coding agent. You work in one workspace folder on the \
user's behalf, using the tools provided. The user supervises you and approves changes.";

const RULES: &str = "Working rules:\n\
- Read a file before changing it; prefer `edit` or `multi_edit` for changes to existing files \
and `write` for new files.\n\
- Keep changes minimal and focused on the request; do not touch files outside the workspace.\n\
- Run commands with `bash` from the workspace root; check their results before moving on.\n\
- Verify what you changed: where the project has tests (or a type checker, a linter), run the \
relevant ones and fix what fails before you finish. If you could not verify something, say so.\n\
- Never run destructive git commands unless the user asked for exactly that: `git reset \
--hard`, `git push --force`, `git checkout` or `git restore` of files, `git clean -f`, `git \
branch -D`, `git rebase`. They can throw away the user's work.\n\
- For work with several steps, keep the task list current with `todo_write`: list the steps, \
mark the one you are on as in progress, and mark each done as soon as it is.\n\
- Refer to code as `path:line` (for example `src/main.rs:42`) so the user can open it.\n\
- Be concise: short answers, no filler, and do not repeat what a tool's result already shows.\n\
- If the user rejects a change, follow their feedback instead of retrying the same change.\n\
- When the task is done, call `attempt_completion` with a short summary of what you did.\n\
\n\
A message that starts with `[Session context]` is written by Foreman, not by the user: it gives \
the date and the workspace's git state when the session started.\n\
\n\
Project instructions: the user's own file and the workspace's root file, when there are any, \
follow below. A directory further down may have its own (`AGENTS.md`, or else `CLAUDE.md`, \
`GEMINI.md` or `.clinerules`); it is given with a tool's result the first time you touch that \
directory. Where instructions disagree, the more specific ones win: a directory's over those \
above it, the workspace's over the user's own file, and the user's messages over every file.";

/// Builds the system prompt for `root`, with the user's rule file at `user_rules` and the
/// session's `skills`.
pub fn system_prompt(
    root: &Path,
    shell: &str,
    user_rules: Option<&Path>,
    skills: &[Skill],
) -> String {
    let user = user_rules.and_then(read_user_rules);
    let workspace = rules_of_dir(root, "");
    let mut prompt = render(
        root,
        shell,
        std::env::consts::OS,
        user.as_ref(),
        workspace.as_ref(),
    );
    prompt.push_str(&skills_section(skills));
    prompt
}

/// The skills by name and description, sorted by name (empty without skills): the model loads
/// one with the `skill` tool when a task needs it.
fn skills_section(skills: &[Skill]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let mut sorted: Vec<&Skill> = skills.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut section = "\nSkills: instructions, scripts and files for particular tasks. When a \
        task matches a skill's description, call the `skill` tool with its name to load it \
        before you start, then follow it.\n"
        .to_owned();
    for skill in sorted {
        section.push_str(&format!("- {}: {}\n", skill.name, skill.description));
    }
    section
}

/// The prompt from its parts.
fn render(
    root: &Path,
    shell: &str,
    os: &str,
    user: Option<&RuleText>,
    workspace: Option<&RuleText>,
) -> String {
    let mut prompt = format!(
        "{ROLE}\n\n{RULES}\n\nEnvironment:\n- OS: {os}\n- Shell: {shell}\n- Workspace root: {}\n\
         - {}\n",
        root.display(),
        shell_conventions(os)
    );
    if let Some(user) = user {
        prompt.push('\n');
        prompt
            .push_str(&user.introduced("all of the user's workspaces; it is the user's own file"));
    }
    if let Some(workspace) = workspace {
        prompt.push('\n');
        prompt.push_str(&workspace.introduced("the whole workspace"));
    }
    prompt
}

/// How commands and paths are written on `os`.
fn shell_conventions(os: &str) -> &'static str {
    match os {
        "windows" => {
            "Conventions: native paths use `\\` and drive letters (`C:\\work\\x.rs`); write \
             commands for the shell named above, since PowerShell and cmd differ from a POSIX \
             shell (`$env:NAME` or `%NAME%` for variables, `;` or `&` between commands)."
        }
        "macos" => {
            "Conventions: a POSIX shell and `/` in paths; the tools are BSD's, not GNU's (for \
             example `sed -i ''`)."
        }
        _ => "Conventions: a POSIX shell and `/` in paths.",
    }
}

/// The shell `bash` runs in, as named in the prompt.
pub fn default_shell() -> String {
    command_shell().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::RuleFileKind;

    fn rules(shown: &str, kind: RuleFileKind, text: &str) -> RuleText {
        RuleText {
            shown: shown.to_owned(),
            kind,
            text: text.to_owned(),
            bytes: text.len() as u64,
            truncated: false,
        }
    }

    #[test]
    fn the_whole_prompt_is_pinned() {
        let user = rules(
            "/home/u/.config/dev.foreman.app/AGENTS.md",
            RuleFileKind::User,
            "Answer in English.",
        );
        let workspace = rules("CLAUDE.md", RuleFileKind::ClaudeMd, "Use tabs.\n");
        let prompt = render(
            Path::new("/work/project"),
            "bash",
            "linux",
            Some(&user),
            Some(&workspace),
        );
        let expected = "\
You are Foreman's coding agent. You work in one workspace folder on the user's behalf, using \
the tools provided. The user supervises you and approves changes.

Working rules:
- Read a file before changing it; prefer `edit` or `multi_edit` for changes to existing files \
and `write` for new files.
- Keep changes minimal and focused on the request; do not touch files outside the workspace.
- Run commands with `bash` from the workspace root; check their results before moving on.
- Verify what you changed: where the project has tests (or a type checker, a linter), run the \
relevant ones and fix what fails before you finish. If you could not verify something, say so.
- Never run destructive git commands unless the user asked for exactly that: `git reset \
--hard`, `git push --force`, `git checkout` or `git restore` of files, `git clean -f`, `git \
branch -D`, `git rebase`. They can throw away the user's work.
- For work with several steps, keep the task list current with `todo_write`: list the steps, \
mark the one you are on as in progress, and mark each done as soon as it is.
- Refer to code as `path:line` (for example `src/main.rs:42`) so the user can open it.
- Be concise: short answers, no filler, and do not repeat what a tool's result already shows.
- If the user rejects a change, follow their feedback instead of retrying the same change.
- When the task is done, call `attempt_completion` with a short summary of what you did.

A message that starts with `[Session context]` is written by Foreman, not by the user: it gives \
the date and the workspace's git state when the session started.

Project instructions: the user's own file and the workspace's root file, when there are any, \
follow below. A directory further down may have its own (`AGENTS.md`, or else `CLAUDE.md`, \
`GEMINI.md` or `.clinerules`); it is given with a tool's result the first time you touch that \
directory. Where instructions disagree, the more specific ones win: a directory's over those \
above it, the workspace's over the user's own file, and the user's messages over every file.

Environment:
- OS: linux
- Shell: bash
- Workspace root: /work/project
- Conventions: a POSIX shell and `/` in paths.

Instructions from /home/u/.config/dev.foreman.app/AGENTS.md (they apply to all of the user's \
workspaces; it is the user's own file):

Answer in English.

Instructions from CLAUDE.md (there is no AGENTS.md there, so this file is read instead) (they \
apply to the whole workspace):

Use tabs.
";
        assert_eq!(prompt, expected);
    }

    #[test]
    fn each_platform_says_how_to_write_commands_and_paths() {
        let root = Path::new("/w");
        let windows = render(root, "powershell", "windows", None, None);
        assert!(windows.contains("- OS: windows\n- Shell: powershell\n"));
        assert!(windows.contains("native paths use `\\` and drive letters"));
        assert!(windows.contains("PowerShell and cmd differ"));
        assert!(render(root, "bash", "macos", None, None).contains("BSD's, not GNU's"));
        let linux = render(root, "bash", "linux", None, None);
        assert!(linux.ends_with("- Conventions: a POSIX shell and `/` in paths.\n"));
    }

    #[test]
    fn two_builds_of_one_session_are_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let config = tempfile::tempdir().unwrap();
        let user = config.path().join("AGENTS.md");
        std::fs::write(&user, "Mine.").unwrap();
        std::fs::write(dir.path().join("AGENTS.md"), "Use tabs.").unwrap();
        let a = system_prompt(dir.path(), "bash", Some(&user), &[]);
        assert_eq!(a, system_prompt(dir.path(), "bash", Some(&user), &[]));
        assert!(a.contains(&format!("Instructions from {} (they", user.display())));
        assert!(a.ends_with(
            "Instructions from AGENTS.md (they apply to the whole workspace):\n\nUse tabs.\n"
        ));
        assert!(a.contains(&format!("- Workspace root: {}\n", dir.path().display())));
    }

    #[test]
    fn skills_are_listed_by_name_after_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let skill = |name: &str, description: &str| Skill {
            name: name.to_owned(),
            description: description.to_owned(),
            allowed_tools: Vec::new(),
            dir: dir.path().join(name),
            source: format!(".claude/skills/{name}/SKILL.md"),
            body: "Body.".to_owned(),
        };
        let skills = [
            skill("pdf", "Fill PDF forms."),
            skill("docs", "Write docs."),
        ];
        let prompt = system_prompt(dir.path(), "bash", None, &skills);
        assert!(
            prompt.ends_with(
                "- Conventions: a POSIX shell and `/` in paths.\n\nSkills: instructions, \
                 scripts and files for particular tasks. When a task matches a skill's \
                 description, call the `skill` tool with its name to load it before you start, \
                 then follow it.\n- docs: Write docs.\n- pdf: Fill PDF forms.\n"
            ),
            "{prompt}"
        );
        assert!(!prompt.contains("Body."));
        assert_eq!(prompt, system_prompt(dir.path(), "bash", None, &skills));
    }

    #[test]
    fn without_rule_files_the_prompt_ends_with_the_environment() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none.md");
        let prompt = system_prompt(dir.path(), "sh", Some(&missing), &[]);
        assert!(!prompt.contains("Instructions from"), "{prompt}");
        assert!(prompt.contains("- Shell: sh\n"));
    }
}
