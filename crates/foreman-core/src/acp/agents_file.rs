//! `agents.json` in Foreman's config folder: the external agents the person added, each a
//! command that speaks ACP.
//!
//! ```json
//! {"agents": [{"name": "goose", "command": "goose", "args": ["acp"],
//!              "env": {"GOOSE_MODE": "approve"}, "ownPaths": ["~/.config/goose"],
//!              "unsandboxed": false}]}
//! ```
//!
//! `ownPaths` are the agent's own configuration, which it may write from inside the sandbox;
//! `unsandboxed` runs it with the person's full rights; `keyEnv` names the variable it reads an
//! API key from, which a client may hand it (never written to disk). An agent of the file with a preset's
//! name replaces the preset. A file that cannot be read says why, naming the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::spec::{AgentSpec, find_program, presets};
use crate::protocol::AgentInfo;
use crate::sandbox::hidden::expand;

/// The file's name in the config folder.
pub const AGENTS_FILE: &str = "agents.json";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    agents: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Entry {
    name: String,
    command: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    own_paths: Vec<String>,
    #[serde(default)]
    unsandboxed: bool,
    /// The variable it reads its API key from.
    #[serde(default)]
    key_env: Option<String>,
}

/// Why `agents.json` could not be used; the text names the file.
#[derive(Debug, thiserror::Error)]
pub enum AgentsFileError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {reason}")]
    Invalid { path: String, reason: String },
}

/// The agents of `path` (none when there is no such file), their `~/` under `home`.
pub fn read(path: &Path, home: Option<&Path>) -> Result<Vec<AgentSpec>, AgentsFileError> {
    let shown = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(AgentsFileError::Read {
                path: shown,
                source,
            });
        }
    };
    let file: File = serde_json::from_str(&text).map_err(|e| AgentsFileError::Invalid {
        path: shown.clone(),
        reason: e.to_string(),
    })?;
    let mut specs = Vec::with_capacity(file.agents.len());
    for entry in file.agents {
        if entry.name.trim().is_empty() || entry.command.trim().is_empty() {
            return Err(AgentsFileError::Invalid {
                path: shown,
                reason: "every agent needs a name and a command".into(),
            });
        }
        let own_paths = entry
            .own_paths
            .iter()
            .map(|p| {
                expand(p, home).ok_or_else(|| AgentsFileError::Invalid {
                    path: shown.clone(),
                    reason: format!(
                        "agent `{}`: ownPaths entry `{p}` must be absolute or start with ~/",
                        entry.name
                    ),
                })
            })
            .collect::<Result<Vec<PathBuf>, _>>()?;
        specs.push(AgentSpec {
            name: entry.name,
            command: entry.command,
            args: entry.args,
            env: entry.env.into_iter().collect(),
            key_env: entry.key_env,
            keys: Vec::new(),
            own_paths,
            unsandboxed: entry.unsandboxed,
        });
    }
    Ok(specs)
}

/// The agent called `name`: the file's, else the preset's (`None`: no such agent).
pub fn find(name: &str, configured: &[AgentSpec], home: Option<&Path>) -> Option<AgentSpec> {
    configured
        .iter()
        .find(|a| a.name == name)
        .cloned()
        .or_else(|| AgentSpec::preset(name, home))
}

/// Every agent a person can choose, as lists show it: the presets (installed or not, and how
/// to install them) that the file does not replace, then the file's own. `path` is `PATH`.
pub fn listing(configured: &[AgentSpec], path: Option<&std::ffi::OsStr>) -> Vec<AgentInfo> {
    let mut list: Vec<AgentInfo> = presets(path)
        .into_iter()
        .filter(|p| !configured.iter().any(|a| a.name == p.name))
        .map(|p| AgentInfo {
            path: p.found.map(|f| f.display().to_string()),
            install: Some(p.install),
            name: p.name,
            command: p.command,
            preset: true,
            unsandboxed: false,
        })
        .collect();
    list.extend(configured.iter().map(|a| AgentInfo {
        name: a.name.clone(),
        command: a.command.clone(),
        preset: false,
        path: find_program(&a.command, path).map(|f| f.display().to_string()),
        install: None,
        unsandboxed: a.unsandboxed,
    }));
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_of_the_file_replaces_the_preset_and_a_bad_entry_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(AGENTS_FILE);
        assert!(read(&path, None).unwrap().is_empty());
        std::fs::write(
            &path,
            r#"{"agents": [{"name": "claude", "command": "/opt/claude-acp", "ownPaths": ["~/.claude"], "env": {"A": "1"}}]}"#,
        )
        .unwrap();
        let home = Path::new("/home/u");
        let agents = read(&path, Some(home)).unwrap();
        let claude = find("claude", &agents, Some(home)).unwrap();
        assert_eq!(claude.command, "/opt/claude-acp");
        assert_eq!(claude.own_paths, [PathBuf::from("/home/u/.claude")]);
        assert_eq!(claude.env, [("A".to_owned(), "1".to_owned())]);
        assert_eq!(
            find("codex", &agents, Some(home)).unwrap().command,
            "codex-acp"
        );
        std::fs::write(
            &path,
            r#"{"agents": [{"name": "x", "command": "y", "colour": 1}]}"#,
        )
        .unwrap();
        let e = read(&path, None).unwrap_err().to_string();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        assert!(e.contains("colour"), "{e}");
    }

    #[test]
    fn the_listing_has_the_presets_the_file_leaves_and_the_file_s_agents() {
        let bin = tempfile::tempdir().unwrap();
        std::fs::write(bin.path().join("codex-acp"), "").unwrap();
        let path = std::env::join_paths([bin.path()]).unwrap();
        let mine = AgentSpec::command("mine", "nowhere-agent".into(), Vec::new());
        let claude = AgentSpec::command("claude", "my-claude".into(), Vec::new());
        let list = listing(&[mine, claude], Some(&path));
        let names: Vec<&str> = list.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["codex", "gemini", "mine", "claude"]);
        assert!(list[0].path.is_some() && list[0].preset);
        assert!(list[1].path.is_none() && list[1].install.is_some());
        assert!(!list[2].preset && list[2].path.is_none());
    }
}
