//! What a file's changes in a session amount to now: the file as it was before the oldest of
//! those changes that can still be undone, against the file on disk. The user sees in one diff
//! what the agent's changes to a file (and anything else written to it since) add up to, which
//! the cards, one change each, do not show.

use thiserror::Error;

use crate::boundary::WorkspaceBoundary;
use crate::builtin_tools::restore::file_bytes;
use crate::diff::{DiffLimits, diff_texts};
use crate::store::{Store, StoreError};
pub use foreman_protocol::diff::NetChange;

/// Why the net change cannot be shown.
#[derive(Debug, Error)]
pub enum NetChangeError {
    #[error("there is no session {0}")]
    NoSession(String),
    #[error(
        "what the file had before these changes is no longer kept (they were undone, or more \
         than the 10 latest changes were made to it)"
    )]
    NotKept,
    #[error("the workspace {path} cannot be opened: {reason}")]
    Workspace { path: String, reason: String },
    #[error("{0}")]
    File(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What the changes `call_ids` (calls of session `session_id` that changed one file) amount to
/// now; the file is read through the session workspace's boundary.
pub async fn net_change(
    store: &Store,
    session_id: &str,
    call_ids: &[String],
) -> Result<NetChange, NetChangeError> {
    let session = store
        .session(session_id)
        .await?
        .ok_or_else(|| NetChangeError::NoSession(session_id.to_owned()))?;
    let checkpoint = store
        .oldest_checkpoint(session_id, call_ids)
        .await?
        .ok_or(NetChangeError::NotKept)?;
    let workspace = session.workspace_path;
    let read = tokio::task::spawn_blocking(move || {
        let boundary =
            WorkspaceBoundary::new(workspace.as_ref()).map_err(|e| NetChangeError::Workspace {
                path: workspace.clone(),
                reason: e.to_string(),
            })?;
        let shown = boundary
            .resolve(&checkpoint.path)
            .map(|resolved| boundary.display_relative(&resolved))
            .map_err(|e| NetChangeError::File(e.to_string()))?;
        let now = file_bytes(&boundary, &checkpoint.path)
            .map_err(|e| NetChangeError::File(e.to_string()))?;
        // Diffed here too, off the async runtime: a large file can take up to the deadline.
        let before = checkpoint.before.as_deref().map(String::from_utf8_lossy);
        let now = now.as_deref().map(String::from_utf8_lossy);
        let diff = diff_texts(
            &shown,
            before.as_deref(),
            now.as_deref(),
            DiffLimits::default(),
        );
        Ok::<_, NetChangeError>((diff, checkpoint.call_id))
    });
    let (diff, since_call_id) = read
        .await
        .map_err(|e| NetChangeError::File(e.to_string()))??;
    Ok(NetChange {
        diff,
        since_call_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{DiffKind, FileDiff, LineTag};
    use crate::store::Checkpoint;

    fn checkpoint(call_id: &str, path: &str, before: Option<&str>) -> Checkpoint {
        Checkpoint {
            call_id: call_id.into(),
            path: path.into(),
            before: before.map(|b| b.as_bytes().to_vec()),
            after_hash: [7; 32],
        }
    }

    fn texts(diff: &FileDiff, tag: LineTag) -> Vec<String> {
        diff.hunks
            .iter()
            .flat_map(|h| &h.lines)
            .filter(|l| l.tag == tag)
            .map(|l| l.spans.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    #[tokio::test]
    async fn the_oldest_change_still_kept_is_the_baseline_and_the_disk_is_now() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        std::fs::create_dir_all(work.join("src")).unwrap();
        let store = Store::open(&dir.path().join("db.sqlite")).await.unwrap();
        let session = store
            .create_session(&work.display().to_string(), 1)
            .await
            .unwrap();
        let id = session.id;
        for (n, (call, before)) in [("c1", "one\n"), ("c2", "two\n")].iter().enumerate() {
            store
                .save_checkpoint(
                    &id,
                    &checkpoint(call, "src/a.rs", Some(before)),
                    10,
                    n as i64,
                )
                .await
                .unwrap();
        }
        std::fs::write(work.join("src/a.rs"), "three\n").unwrap();
        let both = ["c2".to_owned(), "c1".to_owned()];

        let change = net_change(&store, &id, &both).await.unwrap();
        assert_eq!(change.since_call_id, "c1");
        assert_eq!(change.diff.path, "src/a.rs");
        assert_eq!(change.diff.kind, DiffKind::Modify);
        assert_eq!(texts(&change.diff, LineTag::Removed), ["one"]);
        assert_eq!(texts(&change.diff, LineTag::Added), ["three"]);

        // The first change was undone: the file before the second one is the baseline.
        store.mark_undone(&id, "c1", 5).await.unwrap();
        let change = net_change(&store, &id, &both).await.unwrap();
        assert_eq!(change.since_call_id, "c2");
        assert_eq!(texts(&change.diff, LineTag::Removed), ["two"]);

        // The file is gone now.
        std::fs::remove_file(work.join("src/a.rs")).unwrap();
        let change = net_change(&store, &id, &both).await.unwrap();
        assert_eq!(change.diff.kind, DiffKind::Delete);

        store.mark_undone(&id, "c2", 6).await.unwrap();
        assert!(matches!(
            net_change(&store, &id, &both).await,
            Err(NetChangeError::NotKept)
        ));
        assert!(matches!(
            net_change(&store, "nope", &both).await,
            Err(NetChangeError::NoSession(_))
        ));
    }

    #[tokio::test]
    async fn a_file_the_session_created_is_all_added_and_a_path_outside_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
        let store = Store::open(&dir.path().join("db.sqlite")).await.unwrap();
        let id = store
            .create_session(&work.display().to_string(), 1)
            .await
            .unwrap()
            .id;
        store
            .save_checkpoint(&id, &checkpoint("c1", "new.txt", None), 10, 1)
            .await
            .unwrap();
        std::fs::write(work.join("new.txt"), "a\nb\n").unwrap();
        let change = net_change(&store, &id, &["c1".to_owned()]).await.unwrap();
        assert_eq!(change.diff.kind, DiffKind::Create);
        assert_eq!(change.diff.added, 2);

        // A stored path that leads outside the workspace is not read.
        store
            .save_checkpoint(&id, &checkpoint("c9", "../secret.txt", Some("x")), 10, 2)
            .await
            .unwrap();
        std::fs::write(dir.path().join("secret.txt"), "secret\n").unwrap();
        let refused = net_change(&store, &id, &["c9".to_owned()]).await;
        assert!(
            matches!(refused, Err(NetChangeError::File(_))),
            "{refused:?}"
        );
    }
}
