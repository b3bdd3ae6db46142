//! `foreman-cli`: the Foreman engine without a window.
//!
//! `exec` runs one agent task (readable output, or JSON lines with `--json`); `recent` and
//! `check-workspace` look at the workspace store; `mcp list|approve` show and approve MCP servers.

mod args;
mod attach;
mod checkpoints;
mod exec;
mod mcp;
mod render;
mod rules;
mod stats;

use std::path::PathBuf;
use std::process::ExitCode;

use foreman_core::store::{DATABASE_FILE, Store};
use foreman_core::workspace::WorkspaceDir;

use crate::args::USAGE;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
    let result = runtime.block_on(run(&args, keys));
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

async fn run(args: &[String], keys: exec::Keys) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("exec") => exec::run(args::parse_exec(&args[1..])?, keys).await,
        Some("mcp") => mcp::command(&args[1..]).await,
        Some("sessions") => exec::sessions(&args[1..]).await,
        Some("checkpoints") if args.get(1).map(String::as_str) == Some("list") => {
            checkpoints::list(&args[2..]).await
        }
        Some("rewind") => checkpoints::rewind(&args[1..]).await,
        Some("rules") => rules::command(&args[1..]).await,
        Some("recent") => {
            let db = match (args.get(1).map(String::as_str), args.get(2)) {
                (Some("--db"), Some(file)) => PathBuf::from(file),
                (None, _) => default_database()?,
                _ => return Err(USAGE.to_owned()),
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
        Some("check-workspace") => {
            let raw = args.get(1).ok_or_else(|| USAGE.to_owned())?;
            let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
            let ws = WorkspaceDir::resolve(raw, &cwd).map_err(|e| e.to_string())?;
            println!("{}", ws.path.display());
            Ok(())
        }
        _ => Err(USAGE.to_owned()),
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
