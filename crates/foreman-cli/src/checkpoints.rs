//! `foreman-cli checkpoints list` and `foreman-cli rewind`: a session's whole-workspace
//! checkpoints, and putting the workspace back to before one of its messages, on the same
//! store and shadow repository the app uses.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use foreman_core::checkpoints::Checkpoints;
use foreman_core::store::{NewWorkspaceCheckpoint, Store};
use foreman_core::workspace::WorkspaceDir;

use crate::args::{RewindArgs, StoreArgs};

async fn open(options: &StoreArgs) -> Result<(WorkspaceDir, Store, PathBuf), String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let workspace = WorkspaceDir::resolve(&options.workspace, &cwd).map_err(|e| e.to_string())?;
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
pub async fn list(store: &StoreArgs, session: Option<&str>, json: bool) -> Result<(), String> {
    let (workspace, store, _) = open(store).await?;
    let rows = match session {
        Some(session) => store.workspace_checkpoints(session).await,
        None => {
            store
                .workspace_checkpoints_of(&workspace.path.display().to_string())
                .await
        }
    }
    .map_err(|e| e.to_string())?;
    for row in rows {
        if json {
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
pub async fn rewind(options: RewindArgs) -> Result<(), String> {
    let session = options.session;
    let message = options.before_message;
    let (workspace, store, dir) = open(&options.store).await?;
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
    let coverage = crate::app_settings::coverage(crate::app_settings::read_app()?.as_ref())?;
    let checkpoints = Checkpoints::open(&dir, &workspace.path)
        .map_err(|e| e.to_string())?
        .with_coverage(coverage);
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
    let now = foreman_core::store::now_ms();
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
