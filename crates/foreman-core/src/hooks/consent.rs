//! Consent to a workspace's hooks. A cloned repository must not run programs on the user's
//! computer silently, so the hooks its files name run only once the user has seen and approved
//! that exact set. The consent pins a hash of the set (each hook's event, matcher, command,
//! timeout and file) and of the scripts in the workspace its commands name
//! (`$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py`, `./scripts/fmt.sh`): a changed hook, a new
//! one, or a changed script asks again. The agent cannot approve its own hooks: writing a
//! settings file or a script changes the hash.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::config::HookDef;

/// The hash of the workspace's hooks among `hooks`; `None` when there are none.
pub fn workspace_hash(hooks: &[HookDef], workspace: &Path) -> Option<String> {
    let mut ours: Vec<&HookDef> = hooks.iter().filter(|h| h.workspace).collect();
    if ours.is_empty() {
        return None;
    }
    ours.sort_by(|a, b| {
        (a.event, &a.source, &a.command, a.matcher.shown()).cmp(&(
            b.event,
            &b.source,
            &b.command,
            b.matcher.shown(),
        ))
    });
    let mut digest = Sha256::new();
    for hook in ours {
        for part in [
            hook.event.name(),
            &hook.source,
            &hook.matcher.shown().unwrap_or_default(),
            &hook.command,
            &hook.timeout.as_millis().to_string(),
        ] {
            digest.update(part.len().to_le_bytes());
            digest.update(part.as_bytes());
        }
        // Only when set, so the consents given before the setting existed still hold.
        if hook.keep_children {
            digest.update(b"keepChildren");
        }
        for script in scripts_named(&hook.command, workspace) {
            let bytes = std::fs::read(workspace.join(&script)).unwrap_or_default();
            digest.update(script.to_string_lossy().as_bytes());
            digest.update(Sha256::digest(&bytes));
        }
    }
    Some(
        digest
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

/// Whether `path` is a program or a script (not a file a hook only reads or writes).
fn is_script(path: &Path) -> bool {
    const SCRIPTS: [&str; 16] = [
        "py", "sh", "bash", "zsh", "fish", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "lua",
        "ps1", "cmd", "bat",
    ];
    let by_name = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SCRIPTS.contains(&e.to_ascii_lowercase().as_str()));
    by_name
        || std::fs::metadata(path).is_ok_and(|m| crate::checkpoints::file_facts::is_executable(&m))
}

/// The scripts inside `workspace` that `command` names (after `$CLAUDE_PROJECT_DIR` and
/// `$FOREMAN_PROJECT_DIR`), relative to it.
fn scripts_named(command: &str, workspace: &Path) -> Vec<std::path::PathBuf> {
    let root = workspace.display().to_string();
    let expanded = ["CLAUDE_PROJECT_DIR", "FOREMAN_PROJECT_DIR"].iter().fold(
        command.to_owned(),
        |text, name| {
            text.replace(&format!("${{{name}}}"), &root)
                .replace(&format!("${name}"), &root)
        },
    );
    let mut found = Vec::new();
    for word in expanded.split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|')) {
        let word = word.replace(['"', '\'', '(', ')'], "");
        if word.is_empty() || word.starts_with('-') {
            continue;
        }
        let path = workspace.join(&word);
        if let (Ok(real), Ok(root)) = (path.canonicalize(), workspace.canonicalize())
            && real.starts_with(&root)
            && real.is_file()
            && is_script(&real)
            && let Ok(relative) = real.strip_prefix(&root)
        {
            found.push(relative.to_path_buf());
        }
    }
    found.sort();
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::hooks::matcher::Matcher;
    use crate::protocol::HookEvent;

    fn hook(command: &str, workspace: bool) -> HookDef {
        HookDef {
            event: HookEvent::PreToolUse,
            matcher: Matcher::parse("Bash").unwrap(),
            command: command.into(),
            timeout: Duration::from_secs(60),
            keep_children: false,
            source: ".claude/settings.json".into(),
            workspace,
        }
    }

    #[test]
    fn the_hash_pins_the_set_and_its_scripts() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".claude/hooks")).unwrap();
        let script = dir.path().join(".claude/hooks/guard.py");
        std::fs::write(&script, "print('a')").unwrap();
        let command = "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py";
        assert_eq!(workspace_hash(&[hook(command, false)], dir.path()), None);
        let first = workspace_hash(&[hook(command, true)], dir.path()).unwrap();
        assert_eq!(
            workspace_hash(&[hook(command, true), hook("x", false)], dir.path()).unwrap(),
            first,
            "the user's own hooks are not part of it"
        );
        std::fs::write(&script, "print('b')").unwrap();
        let changed = workspace_hash(&[hook(command, true)], dir.path()).unwrap();
        assert_ne!(first, changed, "a changed script asks again");
        let more = workspace_hash(&[hook(command, true), hook("true", true)], dir.path());
        assert_ne!(more.unwrap(), changed, "a new hook asks again");
        assert_eq!(
            scripts_named("./.claude/hooks/guard.py --x; cat /etc/passwd", dir.path()),
            vec![std::path::PathBuf::from(".claude/hooks/guard.py")]
        );
    }
}
