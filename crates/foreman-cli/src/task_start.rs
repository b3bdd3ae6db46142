//! How `exec` starts its task: in a new worktree (`--worktree [NAME]`, with the repository's
//! setup commands run once, confined), or in the folder itself. What the user should know (a
//! stale worktree pruned, files copied, a setup that failed) goes to stderr.

use std::path::Path;

use foreman_core::tasks::lifecycle::NewTask;
use foreman_core::tasks::place::SetupSandbox;
use foreman_core::tasks::{TaskError, Tasks};
use foreman_protocol::TaskPlace;

use crate::args::ExecArgs;

/// Starts the task `args` asks for in `folder`; returns its session id.
pub async fn start(
    tasks: &Tasks,
    folder: &Path,
    args: &ExecArgs,
    db: &Path,
) -> Result<String, String> {
    let place = match args.worktree {
        Some(_) => TaskPlace::Worktree,
        None => TaskPlace::Folder,
    };
    let new = NewTask {
        place,
        name: args.worktree.clone().filter(|n| !n.is_empty()),
        base: args.base.clone(),
        prompt: args.prompt.clone(),
        agent: None,
    };
    let started = tasks.start(folder, new).await.map_err(|e| match e {
        TaskError::BadName(name) if name.contains(' ') => format!(
            "{name:?} is not a valid task name; give the name right after --worktree \
             (--worktree fix-login \"the prompt\"), or put the prompt after `--`"
        ),
        e => e.to_string(),
    })?;
    for warning in &started.warnings {
        eprintln!("foreman-cli: {warning}");
    }
    if place == TaskPlace::Worktree {
        eprintln!(
            "foreman-cli: the task {} works in {} on the branch {}",
            started.task.name,
            started.task.path,
            started.task.branch.clone().unwrap_or_default()
        );
        let hidden = SetupSandbox {
            hidden: crate::hidden::paths(db, &args.hide)?,
        };
        let failed = tasks
            .setup(&started.task.id, &started.config, &hidden, |text| {
                eprint!("{text}");
            })
            .await
            .map_err(|e| e.to_string())?;
        if let Some(why) = failed {
            eprintln!("foreman-cli: {why} The task runs anyway.");
        }
    }
    Ok(started.task.id)
}
