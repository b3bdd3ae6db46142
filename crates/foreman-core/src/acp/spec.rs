//! What an external agent is: the command that speaks ACP on its stdio, its environment, the
//! folders of its own it may write from inside the sandbox (its login and settings), and
//! whether the person chose to run it outside the sandbox. The presets are the agents Foreman
//! knows by name.

use std::path::{Path, PathBuf};

use crate::secrets::Secret;

/// An agent Foreman starts and talks to over ACP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSpec {
    /// How the person calls it (`claude`, `my-agent`).
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// Set in its environment, beside what it inherits.
    pub env: Vec<(String, String)>,
    /// The variable it reads its API key from (`ANTHROPIC_API_KEY` for Claude Code), for a
    /// client that hands it one (see [`Self::key`]).
    pub key_env: Option<String>,
    /// Keys handed to it in its environment when it starts, never written anywhere.
    pub keys: Vec<(String, Secret)>,
    /// Its own configuration, writable from inside the sandbox (`~/.claude`); paths under the
    /// home folder that do not exist yet are made when it starts.
    pub own_paths: Vec<PathBuf>,
    /// The person chose to run it with their full rights.
    pub unsandboxed: bool,
}

/// A preset: an agent known by name.
struct Preset {
    name: &'static str,
    command: &'static str,
    args: &'static [&'static str],
    /// Under the home folder.
    own: &'static [&'static str],
    /// The variable it reads its API key from.
    key_env: &'static str,
    /// How to install it, for a row that says it is missing.
    install: &'static str,
}

const PRESETS: &[Preset] = &[
    Preset {
        name: "claude",
        command: "claude-agent-acp",
        args: &[],
        own: &[".claude", ".claude.json", ".claude.json.backup"],
        key_env: "ANTHROPIC_API_KEY",
        install: "npm install -g @agentclientprotocol/claude-agent-acp",
    },
    Preset {
        name: "codex",
        command: "codex-acp",
        args: &[],
        own: &[".codex"],
        key_env: "OPENAI_API_KEY",
        install: "npm install -g @agentclientprotocol/codex-acp",
    },
    Preset {
        name: "gemini",
        command: "gemini",
        args: &["--acp"],
        own: &[".gemini"],
        key_env: "GEMINI_API_KEY",
        install: "npm install -g @google/gemini-cli",
    },
];

/// A preset as a person sees it in a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetInfo {
    pub name: String,
    pub command: String,
    /// Where its command was found on `PATH` (`None`: not installed).
    pub found: Option<PathBuf>,
    pub install: String,
}

impl AgentSpec {
    /// A command line of any ACP agent; it writes only its place.
    pub fn command(name: &str, command: String, args: Vec<String>) -> Self {
        Self {
            name: name.to_owned(),
            command,
            args,
            env: Vec::new(),
            key_env: None,
            keys: Vec::new(),
            own_paths: Vec::new(),
            unsandboxed: false,
        }
    }

    /// Hands it `key` in the variable it reads its key from (none: it has no such variable, or
    /// its own login is used).
    pub fn key(&mut self, key: Option<Secret>) {
        if let (Some(var), Some(key)) = (&self.key_env, key) {
            self.keys.push((var.clone(), key));
        }
    }

    /// The preset called `name`, its folders under `home`.
    pub fn preset(name: &str, home: Option<&Path>) -> Option<Self> {
        let preset = PRESETS.iter().find(|p| p.name == name)?;
        Some(Self {
            name: preset.name.to_owned(),
            command: preset.command.to_owned(),
            args: preset.args.iter().map(|a| (*a).to_owned()).collect(),
            env: Vec::new(),
            key_env: Some(preset.key_env.to_owned()),
            keys: Vec::new(),
            own_paths: home
                .map(|home| preset.own.iter().map(|p| home.join(p)).collect())
                .unwrap_or_default(),
            unsandboxed: false,
        })
    }
}

/// Every preset, and whether it is installed (its command on `path`, the `PATH` variable).
pub fn presets(path: Option<&std::ffi::OsStr>) -> Vec<PresetInfo> {
    PRESETS
        .iter()
        .map(|p| PresetInfo {
            name: p.name.to_owned(),
            command: p.command.to_owned(),
            found: find_program(p.command, path),
            install: p.install.to_owned(),
        })
        .collect()
}

/// Where `program` is on `path` (a command with a slash is itself).
pub fn find_program(program: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    if program.contains(std::path::MAIN_SEPARATOR) {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    std::env::split_paths(path?)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_writes_its_own_folders_and_an_unknown_name_is_none() {
        let claude = AgentSpec::preset("claude", Some(Path::new("/home/u"))).unwrap();
        assert_eq!(claude.command, "claude-agent-acp");
        assert!(claude.own_paths.contains(&PathBuf::from("/home/u/.claude")));
        assert_eq!(AgentSpec::preset("gemini", None).unwrap().args, ["--acp"]);
        assert!(AgentSpec::preset("nope", None).is_none());
    }

    #[test]
    fn a_program_is_found_on_the_path_or_not() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("my-agent"), "").unwrap();
        let path = std::env::join_paths([dir.path()]).unwrap();
        assert_eq!(
            find_program("my-agent", Some(&path)),
            Some(dir.path().join("my-agent"))
        );
        assert_eq!(find_program("other", Some(&path)), None);
    }
}
