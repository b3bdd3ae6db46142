//! The system prompt: byte-stable for a session so provider prompt caches keep hitting.
//!
//! It holds the role, the working rules, the OS, the shell and the workspace root, then the
//! workspace's `AGENTS.md` when there is one. Tool definitions travel separately in the request.

use std::path::Path;

/// The most of `AGENTS.md` that goes into the prompt.
pub const MAX_AGENTS_MD_BYTES: usize = 64 * 1024;

const ROLE: &str = "You are Foreman's coding agent. You work in one workspace folder on the \
user's behalf, using the tools provided. A user supervises you and approves changes.";

const RULES: &str = "Rules:\n\
- Read a file before changing it; prefer `edit` for small changes and `write` for new files.\n\
- Keep changes minimal and focused on the request; do not touch files outside the workspace.\n\
- Run commands with `bash` from the workspace root; check results before moving on.\n\
- If the user rejects a change, follow their feedback instead of retrying the same change.\n\
- When the task is done, call `attempt_completion` with a short summary of what you did.";

/// Builds the system prompt for `root`.
pub fn system_prompt(root: &Path, shell: &str) -> String {
    let mut prompt = format!(
        "{ROLE}\n\n{RULES}\n\nEnvironment:\n- OS: {}\n- Shell: {shell}\n- Workspace root: {}\n",
        std::env::consts::OS,
        root.display()
    );
    if let Ok(text) = std::fs::read_to_string(root.join("AGENTS.md")) {
        let mut end = text.len().min(MAX_AGENTS_MD_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        prompt.push_str("\nInstructions from the workspace's AGENTS.md:\n\n");
        prompt.push_str(&text[..end]);
        if !prompt.ends_with('\n') {
            prompt.push('\n');
        }
    }
    prompt
}

/// The shell `bash` runs in, as named in the prompt.
pub fn default_shell() -> String {
    std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_is_stable_and_includes_agents_md() {
        let dir = tempfile::tempdir().unwrap();
        let a = system_prompt(dir.path(), "/bin/bash");
        assert_eq!(a, system_prompt(dir.path(), "/bin/bash"));
        assert!(a.contains("Shell: /bin/bash"));
        assert!(a.contains(&dir.path().display().to_string()));
        assert!(!a.contains("AGENTS.md:"));
        std::fs::write(dir.path().join("AGENTS.md"), "Use tabs.").unwrap();
        let b = system_prompt(dir.path(), "/bin/bash");
        assert!(b.starts_with(&a[..a.len() - 1]));
        assert!(b.ends_with("Use tabs.\n"));
    }
}
