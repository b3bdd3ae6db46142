//! `foreman-cli checkpoints list` and `foreman-cli rewind`: a session's whole-workspace
//! checkpoints, and putting the workspace back to before one of its messages, on the same
//! store and shadow repository the app uses.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use foreman_core::checkpoints::Checkpoints;
use foreman_core::store::{NewWorkspaceCheckpoint, Store};
use foreman_core::workspace::WorkspaceDir;

use crate::args::USAGE;

/// The options both commands take.
#[derive(Debug, Default)]
struct Options {
    workspace: Option<String>,
    session: Option<String>,
    db: Option<PathBuf>,
    json: bool,
    before_message: Option<u32>,
    yes: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut out = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--workspace" => out.workspace = Some(value()?),
            "--session" => out.session = Some(value()?),
            "--db" => out.db = Some(PathBuf::from(value()?)),
            "--json" => out.json = true,
            "--yes" => out.yes = true,
            "--before-message" => {
                let v = value()?;
                let n: u32 = v
                    .parse()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| format!("--before-message counts from 1, not `{v}`"))?;
                out.before_message = Some(n - 1);
            }
            _ => return Err(USAGE.to_owned()),
        }
    }
    Ok(out)
}

async fn open(options: &Options) -> Result<(WorkspaceDir, Store, PathBuf), String> {
    let raw = options
        .workspace
        .as_deref()
        .ok_or_else(|| format!("--workspace is required\n{USAGE}"))?;
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let workspace = WorkspaceDir::resolve(raw, &cwd).map_err(|e| e.to_string())?;
    let db = match &options.db {
        Some(db) => db.clone(),
        None => crate::default_database()?,
    };
    let store = Store::open(&db).await.map_err(|e| e.to_string())?;
    let dir = db
        .parent()
        .map(|p| p.join("checkpoints"))
        .ok_or("the database has no folder")?;
    Ok((workspace, store, dir))
}

/// `checkpoints list --workspace DIR [--session ID] [--json]`.
pub async fn list(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let (workspace, store, _) = open(&options).await?;
    let rows = match &options.session {
        Some(session) => store.workspace_checkpoints(session).await,
        None => {
            store
                .workspace_checkpoints_of(&workspace.path.display().to_string())
                .await
        }
    }
    .map_err(|e| e.to_string())?;
    for row in rows {
        if options.json {
            println!(
                "{}",
                serde_json::to_string(&row).map_err(|e| e.to_string())?
            );
            continue;
        }
        let what = match (row.kind.as_str(), &row.call_id, row.message) {
            ("message", _, Some(n)) => format!("before message {}", n + 1),
            ("rewind", _, Some(n)) => format!("before a rewind to message {}", n + 1),
            ("call", Some(id), _) => format!("before call {id}"),
            ("after", Some(id), _) => format!("after call {id}"),
            ("task_end", _, _) => "at the end of a task".to_owned(),
            (kind, _, _) => kind.to_owned(),
        };
        let commit = row.commit_id.get(..12).unwrap_or(&row.commit_id);
        println!("{}  {}  {commit}  {what}", row.session_id, row.created_at);
    }
    store.close().await;
    Ok(())
}

/// `rewind --workspace DIR --session ID --before-message N [--yes]`.
pub async fn rewind(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let session = options
        .session
        .clone()
        .ok_or_else(|| format!("--session is required\n{USAGE}"))?;
    let message = options
        .before_message
        .ok_or_else(|| format!("--before-message is required\n{USAGE}"))?;
    let (workspace, store, dir) = open(&options).await?;
    let target = store
        .checkpoint_before_message(&session, message)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            format!(
                "session {session} has no checkpoint from before message {}",
                message + 1
            )
        })?;
    let checkpoints = Checkpoints::open(&dir, &workspace.path).map_err(|e| e.to_string())?;
    let plan = checkpoints
        .plan_rewind(&target)
        .map_err(|e| e.to_string())?;
    if plan.changes.is_empty() {
        println!(
            "The workspace is already as it was before message {}.",
            message + 1
        );
        store.close().await;
        return Ok(());
    }
    println!("Rewinding to before message {} changes:", message + 1);
    for change in &plan.changes {
        println!("  {:?}  {}", change.kind, change.path);
    }
    if !options.yes && !confirmed(plan.changes.len())? {
        println!("Nothing was changed.");
        store.close().await;
        return Ok(());
    }
    let done = checkpoints.rewind(&target).map_err(|e| e.to_string())?;
    let skipped = serde_json::to_string(&done.now.skipped).unwrap_or_else(|_| "[]".into());
    let row = NewWorkspaceCheckpoint {
        kind: "rewind",
        call_id: None,
        message: Some(message),
        commit_id: &done.now.id,
        skipped: &skipped,
    };
    let now = foreman_core::conversation::now_ms();
    store
        .record_workspace_checkpoint(&session, row, now)
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "Rewound {} file(s). The workspace before the rewind is checkpoint {}.",
        done.changes.len(),
        done.now.id.get(..12).unwrap_or(&done.now.id)
    );
    store.close().await;
    Ok(())
}

fn confirmed(files: usize) -> Result<bool, String> {
    print!("Rewind {files} file(s)? [y/n] ");
    std::io::stdout().flush().map_err(|e| e.to_string())?;
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| e.to_string())?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}
