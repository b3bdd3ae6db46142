//! The hooks that the settings files name, in Claude Code's schema:
//!
//! ```json
//! { "hooks": { "PreToolUse": [ { "matcher": "Bash",
//!     "hooks": [ { "type": "command", "command": "python3 .claude/hooks/guard.py", "timeout": 30 } ] } ] } }
//! ```
//!
//! The files, in order: the user's own (`hooks.json` in Foreman's config folder,
//! `~/.claude/settings.json`), then the workspace's (`.foreman/settings.json`,
//! `.foreman/settings.local.json`, `.claude/settings.json`, `.claude/settings.local.json`). A
//! workspace's file came with the repository, so its hooks run only with the user's consent
//! ([`super::consent`]). A file that cannot be read or parsed is a warning, and the other files'
//! hooks still load; so is an entry we cannot run (a `prompt` hook, an unknown event).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::matcher::Matcher;
use crate::protocol::HookEvent;

/// How long a hook may run unless it says otherwise (Claude Code's default).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest timeout a hook may ask for.
const MAX_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Where Foreman finds a session's settings files: the same folders as its skills and
/// commands.
pub type HookDirs = crate::slash::SlashDirs;

/// A settings file that may hold hooks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsFile {
    pub path: PathBuf,
    /// As the user would write it (`.claude/settings.json`, `~/.claude/settings.json`).
    pub shown: String,
    /// Whether it came with the workspace (its hooks need consent).
    pub workspace: bool,
}

/// The settings files of `dirs`, in order.
pub fn settings_files(dirs: &HookDirs) -> Vec<SettingsFile> {
    let mut files = Vec::new();
    if let Some(config) = &dirs.config_dir {
        files.push(SettingsFile {
            path: config.join("hooks.json"),
            shown: shown_home(&config.join("hooks.json"), dirs.home.as_deref()),
            workspace: false,
        });
    }
    if let Some(home) = &dirs.home {
        files.push(SettingsFile {
            path: home.join(".claude/settings.json"),
            shown: "~/.claude/settings.json".into(),
            workspace: false,
        });
    }
    for relative in [
        ".foreman/settings.json",
        ".foreman/settings.local.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
    ] {
        files.push(SettingsFile {
            path: dirs.workspace.join(relative),
            shown: relative.into(),
            workspace: true,
        });
    }
    files
}

fn shown_home(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// One hook: a command for an event, maybe for some tools only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookDef {
    pub event: HookEvent,
    pub matcher: Matcher,
    pub command: String,
    pub timeout: Duration,
    /// What it starts may outlive it, until the session ends (`"keepChildren": true`, a
    /// Foreman addition to Claude Code's schema); otherwise it is ended when the hook returns.
    pub keep_children: bool,
    /// The file it comes from, as the user would write it.
    pub source: String,
    /// Whether that file came with the workspace.
    pub workspace: bool,
}

/// What the settings files give.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Loaded {
    pub hooks: Vec<HookDef>,
    pub warnings: Vec<String>,
}

/// Reads every settings file of `dirs`.
pub fn load(dirs: &HookDirs) -> Loaded {
    let mut loaded = Loaded::default();
    for file in settings_files(dirs) {
        let text = match std::fs::read_to_string(&file.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                loaded.warnings.push(format!(
                    "{}: cannot be read ({e}); its hooks do not run.",
                    file.shown
                ));
                continue;
            }
        };
        parse_into(&text, &file, &mut loaded);
    }
    loaded
}

/// Adds the hooks of one file's `text` to `loaded`.
pub fn parse_into(text: &str, file: &SettingsFile, loaded: &mut Loaded) {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            loaded.warnings.push(format!(
                "{}: not valid JSON (line {}, column {}: {e}); its hooks do not run.",
                file.shown,
                e.line(),
                e.column()
            ));
            return;
        }
    };
    if value.get("disableAllHooks") == Some(&Value::Bool(true)) {
        return;
    }
    let Some(hooks) = value.get("hooks") else {
        return;
    };
    let Some(events) = hooks.as_object() else {
        loaded.warnings.push(format!(
            "{}: `hooks` must be an object of events (`\"PreToolUse\": [...]`); its hooks do not run.",
            file.shown
        ));
        return;
    };
    for (name, groups) in events {
        let Some(event) = HookEvent::from_name(name) else {
            loaded.warnings.push(format!(
                "{}: `{name}` is not a hook event Foreman knows; those hooks do not run.",
                file.shown
            ));
            continue;
        };
        let Some(groups) = groups.as_array() else {
            loaded.warnings.push(format!(
                "{}: `{name}` must be a list of {{\"matcher\", \"hooks\"}} entries.",
                file.shown
            ));
            continue;
        };
        for group in groups {
            parse_group(event, group, file, loaded);
        }
    }
}

fn parse_group(event: HookEvent, group: &Value, file: &SettingsFile, loaded: &mut Loaded) {
    let at = format!("{} ({})", file.shown, event.name());
    let raw = group.get("matcher").and_then(Value::as_str).unwrap_or("");
    let matcher = match Matcher::parse(raw) {
        Ok(matcher) => matcher,
        Err(problem) => {
            loaded.warnings.push(format!(
                "{at}: the matcher `{raw}` {problem}; its hooks do not run."
            ));
            return;
        }
    };
    let Some(entries) = group.get("hooks").and_then(Value::as_array) else {
        loaded.warnings.push(format!(
            "{at}: an entry without a `hooks` list is left out."
        ));
        return;
    };
    for entry in entries {
        let kind = entry
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("command");
        if kind != "command" {
            loaded.warnings.push(format!(
                "{at}: `{kind}` hooks are not supported (only `command` hooks run); it is left out."
            ));
            continue;
        }
        let Some(command) = entry
            .get("command")
            .and_then(Value::as_str)
            .filter(|c| !c.trim().is_empty())
        else {
            loaded
                .warnings
                .push(format!("{at}: a hook without a `command` is left out."));
            continue;
        };
        let timeout = match entry.get("timeout").and_then(Value::as_f64) {
            Some(secs) if secs > 0.0 => Duration::from_secs_f64(secs).min(MAX_TIMEOUT),
            _ => DEFAULT_TIMEOUT,
        };
        let keep_children = entry
            .get("keepChildren")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        loaded.hooks.push(HookDef {
            event,
            matcher: matcher.clone(),
            command: command.to_owned(),
            timeout,
            keep_children,
            source: file.shown.clone(),
            workspace: file.workspace,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(workspace: bool) -> SettingsFile {
        SettingsFile {
            path: PathBuf::from("/w/.claude/settings.json"),
            shown: ".claude/settings.json".into(),
            workspace,
        }
    }

    #[test]
    fn claude_codes_schema_loads() {
        let mut loaded = Loaded::default();
        parse_into(
            r#"{"permissions": {}, "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "python3 guard.py", "timeout": 5}]}],
                "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]
            }}"#,
            &file(true),
            &mut loaded,
        );
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        assert_eq!(loaded.hooks.len(), 2);
        let guard = &loaded.hooks[0];
        assert_eq!(guard.event, HookEvent::PreToolUse);
        assert_eq!(guard.timeout, Duration::from_secs(5));
        assert!(guard.matcher.matches("Bash", "bash"));
        assert!(!guard.matcher.matches("Write", "write"));
        assert!(guard.workspace);
        assert_eq!(loaded.hooks[1].timeout, DEFAULT_TIMEOUT);
        assert!(loaded.hooks[1].matcher.matches("anything", "x"));
    }

    #[test]
    fn bad_input_warns_and_the_rest_loads() {
        let mut loaded = Loaded::default();
        parse_into("{\"hooks\": {", &file(true), &mut loaded);
        assert_eq!(loaded.warnings.len(), 1);
        assert!(
            loaded.warnings[0].starts_with(".claude/settings.json: not valid JSON (line 1"),
            "{:?}",
            loaded.warnings
        );
        parse_into(
            r#"{"hooks": {"OnSave": [], "Stop": [{"hooks": [
                {"type": "prompt", "prompt": "x"}, {"type": "command"},
                {"type": "command", "command": "true"}]}],
                "PostToolUse": [{"matcher": "Edit(", "hooks": []}]}}"#,
            &file(false),
            &mut loaded,
        );
        assert_eq!(loaded.hooks.len(), 1, "{loaded:?}");
        let all = loaded.warnings.join("\n");
        for expected in [
            "`OnSave` is not a hook event",
            "`prompt` hooks are not supported",
            "a hook without a `command`",
            "the matcher `Edit(`",
        ] {
            assert!(all.contains(expected), "{expected} in {all}");
        }
    }

    #[test]
    fn disable_all_hooks_is_honoured() {
        let mut loaded = Loaded::default();
        parse_into(
            r#"{"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"command": "x"}]}]}}"#,
            &file(false),
            &mut loaded,
        );
        assert!(loaded.hooks.is_empty());
    }
}
