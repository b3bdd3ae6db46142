//! Which agent does an `exec`'s work (`--agent`, `--agent-command`), and `agents list`.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use foreman_core::acp::AgentSpec;
use foreman_core::acp::agents_file::{self, AGENTS_FILE};

/// The external agent of an `exec`, when it is not Foreman's own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct AgentArgs {
    /// Let an external agent do the work over ACP: a preset (claude, codex, gemini) or an
    /// agent of agents.json in the app's config folder.
    #[arg(long, value_name = "NAME", conflicts_with = "agent_command")]
    pub agent: Option<String>,
    /// Any agent that speaks ACP on its stdio, as a command line (split like a shell's).
    #[arg(long = "agent-command", value_name = "COMMAND")]
    pub agent_command: Option<String>,
    /// Run the external agent with your full rights, outside Foreman's sandbox.
    #[arg(long = "agent-unsandboxed")]
    pub agent_unsandboxed: bool,
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// The agents of `agents.json` in the app's config folder `config`.
fn configured(config: Option<&Path>) -> Result<Vec<AgentSpec>, String> {
    match config {
        Some(dir) => {
            agents_file::read(&dir.join(AGENTS_FILE), home().as_deref()).map_err(|e| e.to_string())
        }
        None => Ok(Vec::new()),
    }
}

impl AgentArgs {
    /// The agent these flags name (`None`: Foreman's own); `config` is the app's config folder.
    pub fn spec(&self, config: Option<&Path>) -> Result<Option<AgentSpec>, String> {
        let mut spec = match (&self.agent, &self.agent_command) {
            (Some(name), _) => agents_file::find(name, &configured(config)?, home().as_deref())
                .ok_or_else(|| {
                    format!(
                        "there is no agent `{name}`: the presets are claude, codex and gemini, \
                         and agents.json in the app's config folder adds others"
                    )
                })?,
            (None, Some(line)) => {
                let words = shlex::split(line)
                    .filter(|w| !w.is_empty())
                    .ok_or_else(|| format!("--agent-command `{line}` is not a command line"))?;
                let (command, args) = words
                    .split_first()
                    .map(|(c, a)| (c.clone(), a.to_vec()))
                    .ok_or("--agent-command is empty")?;
                let name = Path::new(&command)
                    .file_name()
                    .map_or_else(|| command.clone(), |n| n.to_string_lossy().into_owned());
                AgentSpec::command(&name, command, args)
            }
            (None, None) if self.agent_unsandboxed => {
                return Err("--agent-unsandboxed needs --agent or --agent-command".into());
            }
            (None, None) => return Ok(None),
        };
        spec.unsandboxed |= self.agent_unsandboxed;
        Ok(Some(spec))
    }
}

/// The agent of an `exec`: the one its flags name, else (resuming) the one the session had.
pub async fn of_session(
    args: &AgentArgs,
    resuming: bool,
    store: &foreman_core::store::Store,
    session: &str,
    config: Option<&Path>,
) -> Result<Option<AgentSpec>, String> {
    if let Some(spec) = args.spec(config)? {
        return Ok(Some(spec));
    }
    if !resuming {
        return Ok(None);
    }
    let Some((name, _)) = store
        .session_agent(session)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(None);
    };
    agents_file::find(&name, &configured(config)?, home().as_deref())
        .map(Some)
        .ok_or_else(|| {
            format!(
                "session {session} was run by the agent `{name}`, which is not a preset or in                  agents.json; name it with --agent or --agent-command"
            )
        })
}

/// `agents`.
#[derive(Debug, Subcommand)]
pub enum AgentsCommand {
    /// The external agents: the presets (installed or not, and how to install them) and those
    /// of agents.json.
    List {
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `agents list`; `config` is the app's config folder.
pub fn command(command: AgentsCommand, config: Option<&Path>) -> Result<(), String> {
    let AgentsCommand::List { json } = command;
    let path = std::env::var_os("PATH");
    for agent in agents_file::listing(&configured(config)?, path.as_deref()) {
        if json {
            println!(
                "{}",
                serde_json::to_string(&agent).map_err(|e| e.to_string())?
            );
            continue;
        }
        let from = if agent.preset {
            "preset"
        } else {
            "agents.json"
        };
        let sandbox = if agent.unsandboxed {
            ", outside the sandbox"
        } else {
            ""
        };
        let state = match (&agent.path, &agent.install) {
            (Some(path), _) => format!("installed: {path}"),
            (None, Some(install)) => format!("not installed: {install}"),
            (None, None) => format!("`{}` not found", agent.command),
        };
        println!("{}  {from}{sandbox}, {state}", agent.name);
    }
    Ok(())
}
