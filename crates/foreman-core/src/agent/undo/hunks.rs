//! Undoing part of a file change the agent made: the user picks hunks of the change on its
//! card, and those get back what the file had before the call while the rest stays. As with a
//! whole undo, the file must still have exactly what the call (or an earlier partial undo) left,
//! so nothing written since is overwritten; the call stays undoable as a whole afterwards, since
//! its checkpoint keeps the bytes from before it and learns the new bytes it must find.

use crate::agent::calls::preview::diff_preview;
use crate::agent::engine::Engine;
use crate::agent::undo::state::UndoError;
use crate::builtin_tools::stale_guard::content_hash;
use crate::conversation::notes::UNDO_NOTE_START;
use crate::diff::{DiffLimits, HunkRef, apply_hunks, diff_texts};
use crate::protocol::UndoState;
use crate::store::now_ms;
use crate::store::{Checkpoint, StoreError};

impl Engine {
    /// Answers `undo_hunks` for `call_id`.
    pub(crate) async fn undo_hunks(&mut self, call_id: &str, hunks: Vec<HunkRef>) {
        if let Err(reason) = self.try_undo_hunks(call_id, &hunks).await {
            self.refuse_undo(call_id, &reason);
        }
    }

    async fn try_undo_hunks(&mut self, call_id: &str, shown: &[HunkRef]) -> Result<(), UndoError> {
        if self.changes.undo.changing {
            return Err(UndoError::Busy);
        }
        let checkpoint = self
            .checkpoint_of(call_id)
            .await?
            .ok_or(UndoError::Nothing)?;
        let path = checkpoint.path.clone();
        let before = checkpoint.before.as_deref().ok_or(UndoError::Created)?;
        let now = self
            .tools
            .files
            .file_bytes(&path)?
            .ok_or_else(|| UndoError::Gone(path.clone()))?;
        if content_hash(&now) != checkpoint.after_hash {
            return Err(UndoError::ChangedSince(path));
        }
        let (Ok(old), Ok(new)) = (std::str::from_utf8(before), std::str::from_utf8(&now)) else {
            return Err(UndoError::NotText);
        };
        let diff = diff_texts(&path, Some(old), Some(new), DiffLimits::default());
        if diff.approximate || diff.omitted_hunks > 0 {
            return Err(UndoError::TooLarge);
        }
        let mut undone = Vec::new();
        for hunk in shown {
            let index = diff
                .hunks
                .iter()
                .position(|h| h.reference() == *hunk)
                .ok_or(UndoError::Mismatch)?;
            undone.push(index);
        }
        undone.sort_unstable();
        undone.dedup();
        if undone.is_empty() {
            return Err(UndoError::NoHunk);
        }
        if undone.len() == diff.hunks.len() {
            self.undo_change(call_id).await;
            return Ok(());
        }
        let kept: Vec<u32> = (0..diff.hunks.len())
            .filter(|i| !undone.contains(i))
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        let content = apply_hunks(&diff, old, new, &kept)?;
        self.tools
            .files
            .restore_file(&path, Some(content.as_bytes()), &checkpoint.after_hash)?;
        let after_hash = content_hash(content.as_bytes());
        let preview = diff_preview(&path, Some(old), &content);
        if let Some(kept) = self
            .changes
            .undo
            .kept
            .iter_mut()
            .find(|c| c.call_id == call_id)
        {
            kept.after_hash = after_hash;
        }
        if let Some(store) = self.persist.store().cloned() {
            let card = serde_json::to_value(&preview).unwrap_or_default();
            if let Err(e) = store
                .set_checkpoint_after(&self.id, call_id, &after_hash, &card, now_ms())
                .await
            {
                // The file has the new bytes: the checkpoint that knows them is kept in memory,
                // so the rest still undoes in this run.
                self.store_failed(&e);
                self.changes.undo.keep(Checkpoint {
                    after_hash,
                    ..checkpoint
                });
            }
        }
        self.calls.show_preview(&mut self.events, call_id, preview);
        self.calls
            .set_undo(&mut self.events, call_id, UndoState::Partly);
        let numbers: Vec<String> = undone.iter().map(|i| (i + 1).to_string()).collect();
        let (which, verb) = match undone.len() {
            1 => ("hunk", "is"),
            _ => ("hunks", "are"),
        };
        self.changes.undo.notes.push(format!(
            "{UNDO_NOTE_START}{call_id} made to `{path}` in part: {which} {} of its {} {verb} as before \
             that call again, the rest of the change stays. Read the file before you change it.",
            numbers.join(", "),
            diff.hunks.len(),
        ));
        Ok(())
    }

    /// The checkpoint of `call_id`: in memory without a store, else read from the store.
    pub(crate) async fn checkpoint_of(
        &self,
        call_id: &str,
    ) -> Result<Option<Checkpoint>, StoreError> {
        if let Some(kept) = self.changes.undo.kept.iter().find(|c| c.call_id == call_id) {
            return Ok(Some(kept.clone()));
        }
        match self.persist.store().cloned() {
            Some(store) => store.checkpoint(&self.id, call_id).await,
            None => Ok(None),
        }
    }
}
