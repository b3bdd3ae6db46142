//! `foreman-cli tasks list|hand-back|clean-up`, `merge`, `discard` and `restore`: the engine's
//! tasks ([`foreman_core::tasks`]) from the command line. Each prints what happened in a
//! sentence (or JSON), and a refusal says why with nothing changed.

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use foreman_core::store::Store;
use foreman_core::tasks::{MergeOptions, TaskError, Tasks};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::{MergeProgress, MergeStep, TaskSummary};

use crate::task_args::{DiscardArgs, MergeArgs, TaskArg, TasksCommand};

/// The tasks of the database `db` (default: the app's), and the workspace `dir` as the store
/// names it.
async fn open(dir: &str, db: Option<PathBuf>) -> Result<(Tasks, String), String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let ws = WorkspaceDir::resolve(dir, &cwd).map_err(|e| e.to_string())?;
    let db = match db {
        Some(db) => db,
        None => crate::default_database()?,
    };
    let store = Store::open(&db).await.map_err(|e| e.to_string())?;
    let data_dir = db
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir);
    Ok((Tasks::new(store, data_dir), ws.path.display().to_string()))
}

/// The id of the task `arg` names (by name or id) in its workspace.
async fn find(tasks: &Tasks, workspace: &str, wanted: &str) -> Result<String, String> {
    let rows = tasks
        .store()
        .tasks(workspace)
        .await
        .map_err(|e| e.to_string())?;
    rows.iter()
        .find(|t| t.id == wanted)
        .or_else(|| rows.iter().find(|t| t.name == wanted))
        .map(|t| t.id.clone())
        .ok_or_else(|| {
            let names: Vec<&str> = rows.iter().map(|t| t.name.as_str()).collect();
            if names.is_empty() {
                format!("there is no task {wanted} in {workspace}; it has no tasks")
            } else {
                format!(
                    "there is no task {wanted} in {workspace}; its tasks are {}",
                    names.join(", ")
                )
            }
        })
}

fn text(e: TaskError) -> String {
    e.to_string()
}

/// `tasks …`.
pub async fn command(command: TasksCommand) -> Result<(), String> {
    match command {
        TasksCommand::List {
            workspace,
            db,
            json,
        } => {
            let (tasks, key) = open(&workspace, db).await?;
            let list = tasks
                .list(&key, &HashMap::new(), &HashMap::new())
                .await
                .map_err(text)?;
            let mut out = std::io::stdout().lock();
            if json {
                for task in &list {
                    let line = serde_json::to_string(task).map_err(|e| e.to_string())?;
                    writeln!(out, "{line}").map_err(|e| e.to_string())?;
                }
            } else if list.is_empty() {
                writeln!(out, "No tasks in {key}.").map_err(|e| e.to_string())?;
            } else {
                for task in &list {
                    writeln!(out, "{}", row(task)).map_err(|e| e.to_string())?;
                }
            }
            tasks.store().close().await;
            Ok(())
        }
        TasksCommand::HandBack(arg) => {
            let (tasks, key) = open(&arg.workspace, arg.db.clone()).await?;
            let id = find(&tasks, &key, &arg.task).await?;
            let row = tasks.hand_back(&id).await.map_err(text)?;
            println!(
                "The task {} is handed back: its change is in {}, uncommitted.",
                row.name, row.path
            );
            tasks.store().close().await;
            Ok(())
        }
        TasksCommand::CleanUp { workspace, db } => {
            let (tasks, key) = open(&workspace, db).await?;
            let (freed, kept) = tasks.clean_up_merged(&key).await.map_err(text)?;
            println!("Freed {}.", size(freed));
            for why in kept {
                println!("Kept {why}");
            }
            tasks.store().close().await;
            Ok(())
        }
    }
}

/// One task as a line of `tasks list`.
fn row(t: &TaskSummary) -> String {
    let state = serde_json::to_value(t.state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let mut line = format!(
        "{:<24} {:<9} +{:<5} -{:<5} {}",
        t.name,
        state,
        t.added,
        t.removed,
        t.branch.as_ref().map_or_else(
            || "(in the folder)".to_owned(),
            |b| format!("{b} from {}", t.base)
        ),
    );
    if let Some(bytes) = t.disk_bytes {
        line.push_str(&format!("  {}", size(bytes)));
    }
    if t.missing {
        line.push_str("  worktree deleted");
    }
    for o in &t.overlaps {
        line.push_str(&format!(
            "\n    also changed by {}: {}{}",
            o.task_name,
            o.path,
            if o.likely_conflict {
                " (likely conflict)"
            } else {
                ""
            }
        ));
    }
    if let Some(m) = &t.merge
        && let Some(message) = &m.message
    {
        line.push_str(&format!("\n    merge: {message}"));
    }
    line
}

fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / f64::from(1u32 << 30)),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / f64::from(1u32 << 20)),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}

/// `merge TASK`.
pub async fn merge(args: MergeArgs) -> Result<(), String> {
    let (tasks, key) = open(&args.task.workspace, args.task.db.clone()).await?;
    let id = find(&tasks, &key, &args.task.task).await?;
    let db = match &args.task.db {
        Some(db) => db.clone(),
        None => crate::default_database()?,
    };
    let hidden = crate::hidden::paths(&db, &[])?;
    let options = MergeOptions {
        check: args.check,
        into: args.into,
        ..MergeOptions::chosen(args.message, args.merge_commit, hidden)
    };
    let json = args.json;
    let show = move |p: &MergeProgress| {
        if !json && !p.step.is_over() {
            eprintln!("foreman-cli: merge: {}", step_words(p));
        }
    };
    let result = tasks.merge(&id, options, &show).await;
    tasks.store().close().await;
    let progress = result.map_err(text)?;
    if json {
        println!(
            "{}",
            serde_json::to_string(&progress).map_err(|e| e.to_string())?
        );
    } else {
        if let Some(output) = &progress.output
            && progress.step == MergeStep::CheckFailed
        {
            println!("{output}");
        }
        println!("{}", progress.message.clone().unwrap_or_default());
    }
    if progress.step == MergeStep::Merged {
        Ok(())
    } else {
        Err(format!(
            "the task was not merged ({})",
            serde_json::to_value(progress.step)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        ))
    }
}

fn step_words(p: &MergeProgress) -> String {
    match p.step {
        MergeStep::Queued => format!("waiting for {} task(s) ahead", p.ahead),
        MergeStep::Committing => "committing the task's changes".into(),
        MergeStep::Rebasing => format!("bringing it onto {}", p.target),
        MergeStep::Checking => "running the check, confined".into(),
        MergeStep::Landing => format!("fast-forwarding {}", p.target),
        _ => String::new(),
    }
}

/// `discard TASK`.
pub async fn discard(args: DiscardArgs) -> Result<(), String> {
    let (tasks, key) = open(&args.task.workspace, args.task.db.clone()).await?;
    let id = find(&tasks, &key, &args.task.task).await?;
    let result = match tasks.discard(&id, args.yes).await {
        Err(e @ TaskError::UnmergedWork { .. }) if std::io::stdin().is_terminal() => {
            eprint!("foreman-cli: {e}. Discard it? [y/N] ");
            let _ = std::io::stderr().flush();
            let mut answer = String::new();
            let _ = std::io::stdin().lock().read_line(&mut answer);
            if answer.trim().eq_ignore_ascii_case("y") {
                tasks.discard(&id, true).await
            } else {
                Err(e)
            }
        }
        other => other,
    };
    tasks.store().close().await;
    let row = result.map_err(|e| match e {
        TaskError::UnmergedWork { .. } => format!("{e} (--yes)"),
        e => e.to_string(),
    })?;
    match row.trash_ref {
        Some(_) => println!(
            "Discarded the task {}; `foreman-cli restore {}` brings it back for 14 days.",
            row.name, row.name
        ),
        None => println!("Discarded the task {}.", row.name),
    }
    Ok(())
}

/// `restore TASK`.
pub async fn restore(arg: TaskArg) -> Result<(), String> {
    let (tasks, key) = open(&arg.workspace, arg.db.clone()).await?;
    let id = find(&tasks, &key, &arg.task).await?;
    let result = tasks.restore(&id).await;
    tasks.store().close().await;
    let row = result.map_err(text)?;
    println!("Restored the task {} in {}.", row.name, row.path);
    if let Some(note) = row.note {
        println!("{note}");
    }
    Ok(())
}
