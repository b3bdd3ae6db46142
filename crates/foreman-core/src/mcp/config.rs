//! The configuration files: `{"mcpServers": {...}, "discovery": {...}}`.
//!
//! Two levels are read, the user's own file and the workspace's `.foreman/mcp.json`. A file
//! that cannot be read or is not JSON is an error; an entry that makes no sense (neither
//! `command` nor `url`, a `timeout` that is not a whole number of seconds within bounds, a
//! `sandbox` that is not a level) is reported as a problem and the other entries still load.
//!
//! A stdio server's `"sandbox"` (`"off"`, the default, `"read-only"` or `"workspace-write"`) and
//! `"sandboxNetwork"` (`false` unless set) say how the program is confined; a URL server runs
//! elsewhere and cannot have one. The discovery command has none: it runs at the level of the
//! sessions' `bash` tool (see `confinement`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use foreman_protocol::SandboxLevel;
pub use foreman_protocol::mcp::{ServerSandbox, ServerSource};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

/// The workspace's configuration file, relative to its root.
pub const WORKSPACE_CONFIG: &str = ".foreman/mcp.json";

/// The server name under which a discovery command appears.
pub const DISCOVERY_SERVER: &str = "discovery";

/// The longest per-server call timeout accepted, in seconds.
pub const MAX_TIMEOUT_SECS: u64 = 3600;

/// The discovery command and the command that runs a discovered tool.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryConfig {
    /// Prints a JSON array of function declarations.
    pub command: String,
    /// Runs one tool: the tool name is its argument, the parameters come as JSON on stdin.
    pub call_command: String,
    /// Built-in tools that discovered tools of the same name replace (`["bash"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaces: Vec<String>,
}

/// How a server is reached, or what provides its tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerKind {
    /// A child process speaking MCP over stdin/stdout.
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        /// How the process is confined (`"sandbox"`, `"sandboxNetwork"`); off by default.
        sandbox: ServerSandbox,
    },
    /// An MCP server over streamable HTTP.
    Http {
        url: String,
        headers: BTreeMap<String, String>,
    },
    /// The discovery command.
    Discovery(DiscoveryConfig),
}

/// One configured server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    pub name: String,
    pub source: ServerSource,
    pub kind: ServerKind,
    pub disabled: bool,
    /// Server-side tool names that are not offered to the model.
    pub disabled_tools: Vec<String>,
    /// How long one tool call may take (`"timeout"`, in seconds); `None`: the hub's default.
    pub timeout: Option<Duration>,
    /// Built-in tools that this server's tools of the same name replace (`"replaces":
    /// ["bash"]`): they take the built-in's name, card and approval rules.
    pub replaces: Vec<String>,
}

impl ServerConfig {
    /// A hash of what the server runs or reaches (command, args, env, url, headers) and of its
    /// sandbox: an approval holds for this exact definition only, so a workspace file that
    /// loosens its server's sandbox is asked about again.
    pub fn definition_hash(&self) -> String {
        let mut canonical = match &self.kind {
            ServerKind::Stdio {
                command,
                args,
                env,
                sandbox,
            } => {
                let mut value = serde_json::json!({"command": command, "args": args, "env": env});
                // Unconfined hashes as before the setting existed.
                if sandbox.confines() {
                    value["sandbox"] = serde_json::json!(sandbox.level.as_str());
                    value["sandboxNetwork"] = serde_json::json!(sandbox.network);
                }
                value
            }
            ServerKind::Http { url, headers } => {
                serde_json::json!({"url": url, "headers": headers})
            }
            ServerKind::Discovery(d) => {
                serde_json::json!({"discovery": d.command, "callCommand": d.call_command})
            }
        };
        // Replacing a built-in is part of what is approved (an empty list hashes as before).
        if !self.replaces.is_empty() {
            canonical["replaces"] = serde_json::json!(self.replaces);
        }
        let digest = Sha256::digest(canonical.to_string().as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// A short description of what runs, for approval prompts and listings.
    pub fn describe(&self) -> String {
        match &self.kind {
            ServerKind::Stdio { command, args, .. } => std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            ServerKind::Http { url, .. } => url.clone(),
            ServerKind::Discovery(d) => d.command.clone(),
        }
    }
}

/// The servers of both levels, with what was wrong in them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpConfig {
    pub servers: Vec<ServerConfig>,
    /// Entries that were skipped, and why.
    pub problems: Vec<String>,
}

/// A configuration file that cannot be used at all.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a valid MCP configuration: {source}")]
    Parse {
        path: PathBuf,
        source: serde_json::Error,
    },
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawFile {
    #[serde(default)]
    mcp_servers: BTreeMap<String, RawServer>,
    #[serde(default)]
    discovery: Option<DiscoveryConfig>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawServer {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default)]
    disabled: bool,
    #[serde(default)]
    disabled_tools: Vec<String>,
    /// Read as any JSON value so that a bad one skips this server only, not the whole file.
    timeout: Option<serde_json::Value>,
    #[serde(default)]
    replaces: Vec<String>,
    /// Read as any JSON value, like `timeout`.
    sandbox: Option<serde_json::Value>,
    sandbox_network: Option<serde_json::Value>,
}

/// A server's `"sandbox"` or `"sandboxNetwork"` that is not one.
#[derive(Debug, thiserror::Error)]
pub enum BadSandbox {
    #[error("`sandbox` must be \"off\", \"read-only\" or \"workspace-write\", not {0}")]
    Level(serde_json::Value),
    #[error("`sandboxNetwork` must be true or false, not {0}")]
    Network(serde_json::Value),
    #[error(
        "`sandbox` confines a server Foreman starts (`command`); one reached by `url` runs elsewhere"
    )]
    NotStarted,
}

/// The `"sandbox"` and `"sandboxNetwork"` of a server (`null` is the same as absent).
fn server_sandbox(
    level: Option<&serde_json::Value>,
    network: Option<&serde_json::Value>,
) -> Result<ServerSandbox, BadSandbox> {
    let level = match level {
        None | Some(serde_json::Value::Null) => SandboxLevel::Off,
        Some(value) => value
            .as_str()
            .and_then(|text| text.parse().ok())
            .ok_or_else(|| BadSandbox::Level(value.clone()))?,
    };
    let network = match network {
        None | Some(serde_json::Value::Null) => false,
        Some(value) => value
            .as_bool()
            .ok_or_else(|| BadSandbox::Network(value.clone()))?,
    };
    Ok(ServerSandbox { level, network })
}

/// A server's `"timeout"` that is not one.
#[derive(Debug, thiserror::Error)]
#[error("`timeout` must be a whole number of seconds from 1 to {MAX_TIMEOUT_SECS}, not {0}")]
pub struct BadTimeout(serde_json::Value);

/// The `"timeout"` of a server: a whole number of seconds from 1 to [`MAX_TIMEOUT_SECS`].
fn call_timeout(value: &serde_json::Value) -> Result<Duration, BadTimeout> {
    let whole = value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0)
            .map(|f| f as u64)
    });
    match whole {
        Some(secs) if (1..=MAX_TIMEOUT_SECS).contains(&secs) => Ok(Duration::from_secs(secs)),
        _ => Err(BadTimeout(value.clone())),
    }
}

impl McpConfig {
    /// Parses one file's text.
    pub fn parse(text: &str, source: ServerSource, path: &Path) -> Result<Self, ConfigError> {
        let raw: RawFile = serde_json::from_str(text).map_err(|source| ConfigError::Parse {
            path: path.to_path_buf(),
            source,
        })?;
        let mut out = Self::default();
        for (name, server) in raw.mcp_servers {
            let skipped = |problem: &dyn std::fmt::Display| {
                format!("{}: server `{name}`: {problem}; skipped", path.display())
            };
            let timeout = match server.timeout.as_ref().map(call_timeout).transpose() {
                Ok(timeout) => timeout,
                Err(problem) => {
                    out.problems.push(skipped(&problem));
                    continue;
                }
            };
            let sandbox =
                match server_sandbox(server.sandbox.as_ref(), server.sandbox_network.as_ref()) {
                    Ok(sandbox) if sandbox.confines() && server.url.is_some() => {
                        out.problems.push(skipped(&BadSandbox::NotStarted));
                        continue;
                    }
                    Ok(sandbox) => sandbox,
                    Err(problem) => {
                        out.problems.push(skipped(&problem));
                        continue;
                    }
                };
            let kind = match (server.command, server.url) {
                (Some(command), None) => ServerKind::Stdio {
                    command,
                    args: server.args,
                    env: server.env,
                    sandbox,
                },
                (None, Some(url)) => ServerKind::Http {
                    url,
                    headers: server.headers,
                },
                (Some(_), Some(_)) => {
                    out.problems.push(format!(
                        "{}: server `{name}` has both `command` and `url`; skipped",
                        path.display()
                    ));
                    continue;
                }
                (None, None) => {
                    out.problems.push(format!(
                        "{}: server `{name}` has neither `command` nor `url`; skipped",
                        path.display()
                    ));
                    continue;
                }
            };
            out.servers.push(ServerConfig {
                name,
                source,
                kind,
                disabled: server.disabled,
                disabled_tools: server.disabled_tools,
                timeout,
                replaces: server.replaces,
            });
        }
        if let Some(discovery) = raw.discovery {
            out.servers.push(ServerConfig {
                name: DISCOVERY_SERVER.to_owned(),
                source,
                replaces: discovery.replaces.clone(),
                kind: ServerKind::Discovery(discovery),
                disabled: false,
                disabled_tools: Vec::new(),
                timeout: None,
            });
        }
        Ok(out)
    }

    /// Reads one file; a missing file is an empty configuration.
    pub fn load_file(path: &Path, source: ServerSource) -> Result<Self, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text, source, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(source) => Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// The user's file (when given) and the workspace's `.foreman/mcp.json` (when a workspace
    /// is given). A workspace server named like one of the user's is skipped: the user's
    /// definition wins.
    pub fn load(user_file: Option<&Path>, workspace: Option<&Path>) -> Result<Self, ConfigError> {
        let mut out = match user_file {
            Some(path) => Self::load_file(path, ServerSource::User)?,
            None => Self::default(),
        };
        if let Some(root) = workspace {
            let path = root.join(WORKSPACE_CONFIG);
            let ws = Self::load_file(&path, ServerSource::Workspace)?;
            out.problems.extend(ws.problems);
            for server in ws.servers {
                if out.servers.iter().any(|s| s.name == server.name) {
                    out.problems.push(format!(
                        "{}: server `{}` is also in your own configuration, which wins; skipped",
                        path.display(),
                        server.name
                    ));
                } else {
                    out.servers.push(server);
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stdio_http_discovery_and_reports_bad_entries() {
        let text = r#"{
          "mcpServers": {
            "fs": {"command": "npx", "args": ["-y", "x"], "env": {"A": "1"}, "disabledTools": ["rm"]},
            "web": {"url": "http://localhost:1/mcp", "headers": {"X-Key": "k"}, "disabled": true},
            "broken": {"args": []}
          },
          "discovery": {"command": "list-tools", "callCommand": "call-tool"}
        }"#;
        let c = McpConfig::parse(text, ServerSource::User, Path::new("u.json")).unwrap();
        assert_eq!(c.servers.len(), 3);
        assert_eq!(c.servers[0].name, "fs");
        assert_eq!(c.servers[0].disabled_tools, vec!["rm".to_owned()]);
        assert!(
            matches!(&c.servers[1].kind, ServerKind::Http { url, .. } if url == "http://localhost:1/mcp")
        );
        assert!(c.servers[1].disabled);
        assert_eq!(c.servers[2].name, DISCOVERY_SERVER);
        assert_eq!(c.problems.len(), 1);
        assert!(c.problems[0].contains("`broken`"), "{:?}", c.problems);
    }

    #[test]
    fn a_per_server_timeout_is_read_and_a_bad_one_skips_only_its_server() {
        let text = r#"{
          "mcpServers": {
            "slow": {"command": "a", "timeout": 300},
            "float": {"command": "b", "timeout": 5.0},
            "plain": {"command": "c"},
            "null": {"command": "d", "timeout": null},
            "zero": {"command": "e", "timeout": 0},
            "negative": {"url": "http://x", "timeout": -5},
            "fraction": {"command": "f", "timeout": 1.5},
            "huge": {"command": "g", "timeout": 3601},
            "text": {"command": "h", "timeout": "60"}
          }
        }"#;
        let c = McpConfig::parse(text, ServerSource::User, Path::new("u.json")).unwrap();
        let timeouts: Vec<(&str, Option<Duration>)> = c
            .servers
            .iter()
            .map(|s| (s.name.as_str(), s.timeout))
            .collect();
        assert_eq!(
            timeouts,
            vec![
                ("float", Some(Duration::from_secs(5))),
                ("null", None),
                ("plain", None),
                ("slow", Some(Duration::from_secs(300))),
            ]
        );
        assert_eq!(c.problems.len(), 5, "{:?}", c.problems);
        for (name, value) in [
            ("fraction", "1.5"),
            ("huge", "3601"),
            ("negative", "-5"),
            ("text", "\"60\""),
            ("zero", "0"),
        ] {
            let problem = format!(
                "u.json: server `{name}`: `timeout` must be a whole number of seconds from 1 to 3600, not {value}; skipped"
            );
            assert!(c.problems.contains(&problem), "{problem}\n{:?}", c.problems);
        }
    }

    #[test]
    fn a_stdio_servers_sandbox_is_read_and_a_bad_one_skips_only_its_server() {
        let text = r#"{
          "mcpServers": {
            "plain": {"command": "a"},
            "nulls": {"command": "b", "sandbox": null, "sandboxNetwork": null},
            "off": {"command": "c", "sandbox": "off", "sandboxNetwork": true},
            "ro": {"command": "d", "sandbox": "read-only"},
            "ws": {"command": "e", "sandbox": "workspace-write", "sandboxNetwork": true},
            "remote": {"url": "http://x", "sandbox": "off"},
            "word": {"command": "f", "sandbox": "strict"},
            "bool": {"command": "g", "sandbox": true},
            "net": {"command": "h", "sandbox": "read-only", "sandboxNetwork": "yes"},
            "url": {"url": "http://y", "sandbox": "read-only"}
          }
        }"#;
        let c = McpConfig::parse(text, ServerSource::User, Path::new("u.json")).unwrap();
        let sandboxes: Vec<(&str, Option<ServerSandbox>)> = c
            .servers
            .iter()
            .map(|s| match &s.kind {
                ServerKind::Stdio { sandbox, .. } => (s.name.as_str(), Some(*sandbox)),
                _ => (s.name.as_str(), None),
            })
            .collect();
        let at = |level, network| Some(ServerSandbox { level, network });
        assert_eq!(
            sandboxes,
            vec![
                ("nulls", Some(ServerSandbox::OFF)),
                ("off", at(SandboxLevel::Off, true)),
                ("plain", Some(ServerSandbox::OFF)),
                ("remote", None),
                ("ro", at(SandboxLevel::ReadOnly, false)),
                ("ws", at(SandboxLevel::WorkspaceWrite, true)),
            ]
        );
        let level = "`sandbox` must be \"off\", \"read-only\" or \"workspace-write\", not";
        let expected = [
            format!("u.json: server `bool`: {level} true; skipped"),
            "u.json: server `net`: `sandboxNetwork` must be true or false, not \"yes\"; skipped"
                .to_owned(),
            "u.json: server `url`: `sandbox` confines a server Foreman starts (`command`); one \
             reached by `url` runs elsewhere; skipped"
                .to_owned(),
            format!("u.json: server `word`: {level} \"strict\"; skipped"),
        ];
        assert_eq!(c.problems, expected);
    }

    #[test]
    fn a_looser_sandbox_changes_the_hash_and_none_keeps_the_old_one() {
        let parse = |t: &str| {
            McpConfig::parse(t, ServerSource::Workspace, Path::new("w.json"))
                .unwrap()
                .servers
                .remove(0)
        };
        let plain = parse(r#"{"mcpServers": {"s": {"command": "a"}}}"#);
        let off = parse(r#"{"mcpServers": {"s": {"command": "a", "sandbox": "off"}}}"#);
        let ws = parse(r#"{"mcpServers": {"s": {"command": "a", "sandbox": "workspace-write"}}}"#);
        let net = parse(
            r#"{"mcpServers": {"s": {"command": "a", "sandbox": "workspace-write", "sandboxNetwork": true}}}"#,
        );
        assert_eq!(plain.definition_hash(), off.definition_hash());
        // Its hash before the setting existed: approvals recorded then still hold.
        assert_eq!(
            plain.definition_hash(),
            "172a25369fc5c6ea3ccf844ec55c2c5d38131a7bf7314f5caeecba2fd952fa9d"
        );
        assert_ne!(ws.definition_hash(), off.definition_hash());
        assert_ne!(ws.definition_hash(), net.definition_hash());
    }

    #[test]
    fn the_hash_changes_with_the_definition() {
        let parse = |t: &str| {
            McpConfig::parse(t, ServerSource::Workspace, Path::new("w.json"))
                .unwrap()
                .servers
                .remove(0)
        };
        let a = parse(r#"{"mcpServers": {"s": {"command": "a", "args": ["1"]}}}"#);
        let same =
            parse(r#"{"mcpServers": {"s": {"command": "a", "args": ["1"], "disabled": true}}}"#);
        let b = parse(r#"{"mcpServers": {"s": {"command": "a", "args": ["2"]}}}"#);
        let c =
            parse(r#"{"mcpServers": {"s": {"command": "a", "args": ["1"], "env": {"X": "y"}}}}"#);
        assert_eq!(a.definition_hash(), same.definition_hash());
        assert_ne!(a.definition_hash(), b.definition_hash());
        assert_ne!(a.definition_hash(), c.definition_hash());
    }

    #[test]
    fn the_users_definition_wins_over_the_workspaces() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("user.json");
        std::fs::write(&user, r#"{"mcpServers": {"s": {"command": "mine"}}}"#).unwrap();
        std::fs::create_dir_all(dir.path().join(".foreman")).unwrap();
        std::fs::write(
            dir.path().join(WORKSPACE_CONFIG),
            r#"{"mcpServers": {"s": {"command": "theirs"}, "t": {"url": "http://x"}}}"#,
        )
        .unwrap();
        let c = McpConfig::load(Some(&user), Some(dir.path())).unwrap();
        assert_eq!(c.servers.len(), 2);
        assert_eq!(c.servers[0].describe(), "mine");
        assert_eq!(c.servers[1].source, ServerSource::Workspace);
        assert_eq!(c.problems.len(), 1);
        assert!(
            McpConfig::load(Some(&dir.path().join("none.json")), None)
                .unwrap()
                .servers
                .is_empty()
        );
        std::fs::write(&user, "{not json").unwrap();
        assert!(matches!(
            McpConfig::load(Some(&user), None),
            Err(ConfigError::Parse { .. })
        ));
    }
}
