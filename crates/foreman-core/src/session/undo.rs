//! Undoing a file change the agent made. Before a call that changes a file runs, the file's bytes
//! are kept; once the call succeeded they become the call's checkpoint (in memory, and in the
//! store so the undo is still there after a restart) and the card offers an undo. `undo_change`
//! puts the bytes back only while the file still has exactly what the call left, so it never
//! overwrites anything written since; changes to one file are undone newest first. The model is
//! told before its next turn, and its read baselines are left alone, so it reads the file again
//! before changing it.

use std::collections::HashMap;

use super::Engine;
use super::history::now_ms;
use crate::builtin_tools::stale_guard::content_hash;
use crate::protocol::{EventMsg, UndoState};
use crate::store::Checkpoint;

/// The checkpoints of a session and what is left to tell the model and the store.
#[derive(Debug, Default)]
pub(crate) struct Undo {
    /// By call id; only changes not undone yet.
    kept: HashMap<String, Checkpoint>,
    /// What the model has not been told yet.
    notes: Vec<String>,
    /// Calls undone since the store was last told.
    unsaved: Vec<String>,
}

impl Engine {
    /// Reads back the stored checkpoints of a resumed session.
    pub(crate) async fn restore_checkpoints(&mut self) {
        let Some(store) = self.store.clone() else {
            return;
        };
        match store.checkpoints(&self.id).await {
            Ok(kept) => {
                for checkpoint in kept {
                    self.undo
                        .kept
                        .insert(checkpoint.call_id.clone(), checkpoint);
                }
            }
            Err(e) => self.store_failed(&e),
        }
    }

    /// The bytes of `path` before a call changes it; `None` when they cannot be kept (the call
    /// then runs without an undo).
    pub(crate) fn bytes_before(&self, path: &str) -> Option<Option<Vec<u8>>> {
        self.tools.file_bytes(path).ok()
    }

    /// After call `call_id` changed `path` successfully: keeps what it replaced and offers the
    /// undo on its card.
    pub(crate) async fn keep_checkpoint(
        &mut self,
        call_id: &str,
        path: &str,
        before: Option<Vec<u8>>,
    ) {
        let Ok(Some(after)) = self.tools.file_bytes(path) else {
            return;
        };
        let checkpoint = Checkpoint {
            call_id: call_id.to_owned(),
            path: path.to_owned(),
            before,
            after_hash: content_hash(&after),
        };
        if let Some(store) = self.store.clone()
            && let Err(e) = store.save_checkpoint(&self.id, &checkpoint, now_ms()).await
        {
            self.store_failed(&e);
        }
        self.undo.kept.insert(call_id.to_owned(), checkpoint);
        self.calls
            .set_undo(&mut self.events, call_id, UndoState::Available);
    }

    /// Answers `undo_change` for `call_id`.
    pub(crate) fn undo_change(&mut self, call_id: &str) {
        let Some(checkpoint) = self.undo.kept.get(call_id) else {
            self.events.emit(EventMsg::UndoRefused {
                call_id: call_id.to_owned(),
                reason: "There is nothing to undo for this call: it changed no file, or its \
                         change was undone already."
                    .into(),
            });
            return;
        };
        let path = checkpoint.path.clone();
        let created = checkpoint.before.is_none();
        if let Err(reason) =
            self.tools
                .restore_file(&path, checkpoint.before.as_deref(), &checkpoint.after_hash)
        {
            self.events.emit(EventMsg::UndoRefused {
                call_id: call_id.to_owned(),
                reason,
            });
            return;
        }
        self.undo.kept.remove(call_id);
        self.undo.unsaved.push(call_id.to_owned());
        self.undo.notes.push(if created {
            format!(
                "I undid your change to `{path}` (call {call_id}): the file you created is gone \
                 again."
            )
        } else {
            format!(
                "I undid your change to `{path}` (call {call_id}): it has its content from before \
                 that call again. Read it before you change it."
            )
        });
        self.calls
            .set_undo(&mut self.events, call_id, UndoState::Done);
    }

    /// What the model has not been told about undone changes, as one message; taken.
    pub(crate) fn take_undo_note(&mut self) -> Option<String> {
        if self.undo.notes.is_empty() {
            return None;
        }
        Some(std::mem::take(&mut self.undo.notes).join("\n"))
    }

    /// Tells the store about the calls undone since it was last told.
    pub(crate) async fn save_undone(&mut self) {
        let Some(store) = self.store.clone() else {
            self.undo.unsaved.clear();
            return;
        };
        for call_id in std::mem::take(&mut self.undo.unsaved) {
            if let Err(e) = store.mark_undone(&self.id, &call_id, now_ms()).await {
                self.store_failed(&e);
            }
        }
    }
}
