//! `foreman-cli`: the Foreman engine without a window.
//!
//! `exec` runs one agent task (readable output, or JSON lines with `--json`), in the folder or
//! in a worktree of its own (`--worktree`), by Foreman's agent or an external one over ACP
//! (`--agent`, `--agent-command`; `agents list` shows them); `tasks`, `merge`, `discard` and `restore` manage
//! tasks; `recent` and `check-workspace` look at the workspace store; `mcp list|approve` show
//! and approve MCP servers; `slash list` shows the `/` menu (commands, skills);
//! `completions SHELL` prints a completion script. The grammar is in
//! `args.rs` (`task_args.rs` for the task commands).

mod agent_args;
mod app_settings;
mod args;
mod attach;
mod checkpoints;
mod exec;
mod hidden;
mod hooks;
mod json_events;
mod mcp;
mod render;
mod rules;
mod setup_args;
mod slash;
mod stats;
mod store_args;
mod store_commands;
mod task_args;
mod task_start;
mod tasks;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use foreman_core::store::{DATABASE_FILE, Store};
use foreman_core::workspace::WorkspaceDir;

use clap::{CommandFactory, Parser};

use crate::args::{CheckpointsCommand, Cli, Command, HooksCommand};

fn main() -> ExitCode {
    // `--help` and `--version` print and exit here with 0; a usage error prints and exits with 1,
    // as every other failure of the CLI does.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            return ExitCode::FAILURE;
        }
        Err(e) => e.exit(),
    };
    // Before any thread starts: the keys leave the environment, where a command the agent runs
    // could read them (`/proc/$PPID/environ`), and the process cannot be inspected by another of
    // the same user.
    foreman_core::secrets::process::harden();
    // SAFETY: no other thread exists yet.
    let keys = unsafe { exec::Keys::take() };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("foreman-cli: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run(cli.command, keys));
    // The stdin reader of `exec` sits in a blocking read; do not wait for it.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("foreman-cli: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command, keys: exec::Keys) -> Result<(), String> {
    match command {
        Command::Exec(options) => exec::run(options.into_args()?, keys).await,
        Command::Mcp(command) => mcp::command(command).await,
        Command::Agents(command) => agent_args::command(command, app_config_dir().as_deref()),
        Command::Hooks(HooksCommand::List(args)) => hooks::list(args).await,
        Command::Sessions(options) => exec::sessions(options).await,
        Command::Checkpoints(CheckpointsCommand::List {
            store,
            session,
            json,
        }) => checkpoints::list(&store, session.as_deref(), json).await,
        Command::Rewind(options) => checkpoints::rewind(options).await,
        Command::Rules(command) => rules::command(command).await,
        Command::Slash(command) => slash::command(command),
        Command::Tasks(command) => tasks::command(command).await,
        Command::Merge(options) => tasks::merge(options).await,
        Command::Discard(options) => tasks::discard(options).await,
        Command::Restore(options) => tasks::restore(options).await,
        Command::Recent { db } => {
            let db = match db {
                Some(file) => file,
                None => default_database()?,
            };
            let store = Store::open(&db).await.map_err(|e| e.to_string())?;
            let recent = store
                .recent_workspaces(50)
                .await
                .map_err(|e| e.to_string())?;
            for ws in recent {
                let line = serde_json::json!({"path": ws.path, "name": ws.name, "last_opened": ws.last_opened});
                println!("{line}");
            }
            store.close().await;
            Ok(())
        }
        Command::CheckWorkspace { dir } => {
            let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
            let ws = WorkspaceDir::resolve(&dir, &cwd).map_err(|e| e.to_string())?;
            println!("{}", ws.path.display());
            Ok(())
        }
        Command::Completions { shell } => {
            // Into a buffer first: the generator panics on a write error (a closed pipe).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "foreman-cli", &mut script);
            std::io::stdout()
                .write_all(&script)
                .map_err(|e| format!("cannot write the completions: {e}"))
        }
    }
}

/// The desktop app's config directory: `$XDG_CONFIG_HOME/dev.foreman.app` (`~/.config/…`).
pub(crate) fn app_config_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|base| base.join("dev.foreman.app"))
}

/// The database the desktop app uses: `$XDG_DATA_HOME/dev.foreman.app/foreman.db` on Linux.
pub(crate) fn default_database() -> Result<PathBuf, String> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .ok_or_else(|| {
            "cannot find the data directory: neither XDG_DATA_HOME nor HOME is set".to_owned()
        })?;
    Ok(base.join("dev.foreman.app").join(DATABASE_FILE))
}
