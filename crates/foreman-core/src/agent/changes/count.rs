//! The session's one count of what it changed in the workspace: every file one of its steps
//! touched (a file tool's change, as the store keeps its file's content before it; a command's
//! or an external tool's, as the checkpoints around it saw them), read on disk now against the
//! workspace checkpointed before its first message
//! ([`Checkpoints::against_disk`](crate::checkpoints::Checkpoints::against_disk)). An undone
//! change or a rewind is counted as what it left on disk. Sent as
//! [`EventMsg::SessionChanges`] after each step that can change files, an undo, a rewind, and
//! when a stored session resumes.

use crate::agent::changes::state::touched;
use crate::agent::engine::Engine;
use crate::checkpoints::CheckpointError;
use crate::protocol::{CallSnapshot, EventMsg};

impl Engine {
    /// Sends what the session has changed in the workspace so far.
    pub(crate) async fn report_session_changes(&mut self) {
        if self.frame.depth != 0 {
            return;
        }
        let (Some(checkpoints), Some(store)) = (
            self.changes.checkpoints.clone(),
            self.persist.store().cloned(),
        ) else {
            return;
        };
        self.settle_checkpoint().await;
        if !self.changes.touched.seeded {
            match store.load_tool_calls(&self.id).await {
                Ok(stored) => {
                    let paths = &mut self.changes.touched.paths;
                    for call in stored {
                        if let Ok(call) = serde_json::from_value::<CallSnapshot>(call.info) {
                            paths.extend(touched(&call).map(str::to_owned));
                        }
                    }
                }
                Err(e) => return self.store_failed(&e),
            }
            self.changes.touched.seeded = true;
        }
        // A file tool's change keeps its file's content before it: its path is in the store.
        let kept = match store.checkpoint_paths(&self.id).await {
            Ok(kept) => kept,
            Err(e) => return self.store_failed(&e),
        };
        let paths = &mut self.changes.touched.paths;
        paths.extend(kept);
        for call in self.calls.iter() {
            paths.extend(touched(call).map(str::to_owned));
        }
        if paths.is_empty() && !self.changes.touched.reported {
            return;
        }
        let paths: Vec<String> = paths.iter().cloned().collect();
        let base = match store.first_workspace_checkpoint(&self.id).await {
            Ok(Some(base)) => base,
            Ok(None) => return,
            Err(e) => return self.store_failed(&e),
        };
        let counted = tokio::task::spawn_blocking(move || checkpoints.against_disk(&base, &paths))
            .await
            .map_err(|e| CheckpointError::Repository(e.to_string()))
            .and_then(|counted| counted);
        match counted {
            Ok(files) => {
                self.changes.touched.reported = true;
                self.events.emit(EventMsg::SessionChanges { files });
            }
            Err(error) => tracing::warn!(%error, "could not count the session's changes"),
        }
    }
}
