//! Undoing a file change the agent made. Before a call that changes a file runs, the file's bytes
//! are kept; once the call succeeded they become the call's checkpoint (in the store, so the undo
//! is still there after a restart and a long session does not hold every version in memory; in
//! memory only for a session without a store) and the card offers an undo. `undo_change` puts
//! the bytes back only while the file still has exactly what the call left, so it never
//! overwrites anything written since; changes to one file are undone newest first. The model is
//! told, and its read baselines are left alone, so it reads the file again before changing it.

use super::Engine;
use super::history::now_ms;
use super::preview::{diff_preview, event_bytes};
use crate::builtin_tools::stale_guard::content_hash;
use crate::protocol::{EventMsg, PREVIEW_LINES_SENT, UndoState};
use crate::store::Checkpoint;

/// How each line of the model's note about an undone change starts ([`is_undo_note`]).
pub(crate) const NOTE_START: &str = "I undid the change call ";

/// Whether `text`, a user message in the history, is the model's note about undone changes
/// (the cards show those; a reopened conversation does not show the note as a message).
pub fn is_undo_note(text: &str) -> bool {
    !text.is_empty() && text.lines().all(|line| line.starts_with(NOTE_START))
}

/// The note for the model about an undone change whose stored bytes are gone (a branch learns
/// of it after the fact, when it is no longer known whether the call had created the file).
pub fn undone_note(call_id: &str, path: &str) -> String {
    format!(
        "{NOTE_START}{call_id} made to `{path}`: the file is as it was before that call (gone, if \
         that call created it). Read it before you change it."
    )
}

/// The note that tells the model part of `call_id`'s change to `path` was undone, when which
/// hunks is not known (a branch learns of it from the store).
pub fn partly_undone_note(call_id: &str, path: &str) -> String {
    format!(
        "{NOTE_START}{call_id} made to `{path}` in part: some of its hunks are as before that \
         call again, the rest of the change stays. Read the file before you change it."
    )
}

/// The most a diff sent for a change that went through without a question may take in an
/// event (about); a larger one is not sent, and the card keeps its line counts.
pub const AUTO_DIFF_BYTES: usize = 128 << 10;

/// How many changes of one file can be undone (newest first); older ones expire.
pub const KEPT_PER_FILE: u32 = 10;

/// The checkpoints of a session without a store, and what the model has not been told yet.
#[derive(Debug, Default)]
pub(crate) struct Undo {
    /// Oldest first, not undone yet; only when there is no store (or it failed to keep one).
    pub(crate) kept: Vec<Checkpoint>,
    /// What the model has not been told yet.
    pub(crate) notes: Vec<String>,
    /// A file-changing call is running: an undo now could race with its write.
    pub(crate) changing: bool,
}

impl Engine {
    /// The bytes of `path` before a call changes it; `None` when they cannot be kept (the call
    /// then runs without an undo).
    pub(crate) fn bytes_before(&self, path: &str) -> Option<Option<Vec<u8>>> {
        self.files.file_bytes(path).ok()
    }

    /// After call `call_id` changed `path` successfully: keeps what it replaced and offers the
    /// undo on its card.
    pub(crate) async fn keep_checkpoint(
        &mut self,
        call_id: &str,
        path: &str,
        before: Option<Vec<u8>>,
    ) {
        let Ok(Some(after)) = self.files.file_bytes(path) else {
            return;
        };
        if let Some(old) = &before {
            self.show_what_it_did(call_id, path, old, &after).await;
        }
        let checkpoint = Checkpoint {
            call_id: call_id.to_owned(),
            path: path.to_owned(),
            before,
            after_hash: content_hash(&after),
        };
        let saved = match self.store.clone() {
            Some(store) => {
                let saved = store
                    .save_checkpoint(&self.id, &checkpoint, KEPT_PER_FILE, now_ms())
                    .await;
                saved.map_err(|e| self.store_failed(&e)).ok()
            }
            None => None,
        };
        let expired = match saved {
            Some(expired) => expired,
            None => self.undo.keep(checkpoint),
        };
        self.calls
            .set_undo(&mut self.events, call_id, UndoState::Available);
        for old in expired {
            self.calls
                .set_undo(&mut self.events, &old, UndoState::Expired);
        }
    }

    /// A change that went through without a question (auto-edit, a rule) has had live counts
    /// only: its card gets the diff of what it did, as an approved one shows, when that diff is
    /// small enough to send ([`AUTO_DIFF_BYTES`]; the content has crossed once already, in the
    /// arguments). Not for a file the call created: the card has its whole content already.
    /// Diffed off the engine's task, as a large file can take up to the diff's deadline.
    async fn show_what_it_did(&mut self, call_id: &str, path: &str, before: &[u8], after: &[u8]) {
        let has_diff = self
            .calls
            .get(call_id)
            .and_then(|c| c.preview.as_ref())
            .is_some_and(|p| p.diff.is_some());
        if has_diff {
            return;
        }
        let (shown, old, new) = (path.to_owned(), before.to_vec(), after.to_vec());
        let diffed = tokio::task::spawn_blocking(move || {
            let old = String::from_utf8_lossy(&old);
            let new = String::from_utf8_lossy(&new);
            diff_preview(&shown, Some(&old), &new)
        })
        .await;
        if let Ok(preview) = diffed
            && preview
                .diff
                .as_ref()
                .is_some_and(|d| event_bytes(&d.first_lines(PREVIEW_LINES_SENT)) <= AUTO_DIFF_BYTES)
        {
            self.calls.show_preview(&mut self.events, call_id, preview);
        }
    }

    /// Answers `undo_change` for `call_id`.
    pub(crate) async fn undo_change(&mut self, call_id: &str) {
        if self.undo.changing {
            return self.refuse_undo(
                call_id,
                "A file is being changed right now; undo when that call has finished.",
            );
        }
        let checkpoint = match self.checkpoint_of(call_id).await {
            Ok(found) => found,
            Err(reason) => return self.refuse_undo(call_id, &reason),
        };
        let Some(checkpoint) = checkpoint else {
            return self.refuse_undo(
                call_id,
                "There is nothing to undo for this call: it changed no file, or its change was \
                 undone already.",
            );
        };
        let path = &checkpoint.path;
        if let Err(reason) =
            self.files
                .restore_file(path, checkpoint.before.as_deref(), &checkpoint.after_hash)
        {
            return self.refuse_undo(call_id, &reason);
        }
        self.undo.kept.retain(|c| c.call_id != call_id);
        if let Some(store) = self.store.clone()
            && let Err(e) = store.mark_undone(&self.id, call_id, now_ms()).await
        {
            self.store_failed(&e);
        }
        self.undo.notes.push(match checkpoint.before {
            None => format!(
                "{NOTE_START}{call_id} made to `{path}`: the file it created is gone again."
            ),
            Some(_) => format!(
                "{NOTE_START}{call_id} made to `{path}`: the file has its content from before that \
                 call again. Read it before you change it."
            ),
        });
        self.calls
            .set_undo(&mut self.events, call_id, UndoState::Done);
    }

    pub(crate) fn refuse_undo(&mut self, call_id: &str, reason: &str) {
        self.events.emit(EventMsg::UndoRefused {
            call_id: call_id.to_owned(),
            reason: reason.to_owned(),
        });
    }

    /// Tells the model of the changes undone since it was last told, in the history.
    pub(crate) async fn record_undo_note(&mut self) {
        if let Some(note) = self.take_undo_note() {
            self.record(crate::providers::Message::user(note)).await;
        }
    }

    /// What the model has not been told about undone changes, as one message; taken.
    pub(crate) fn take_undo_note(&mut self) -> Option<String> {
        if self.undo.notes.is_empty() {
            return None;
        }
        Some(std::mem::take(&mut self.undo.notes).join("\n"))
    }
}

impl Undo {
    /// Keeps `checkpoint` in memory, and only the newest [`KEPT_PER_FILE`] of its file; returns
    /// the calls whose checkpoints were dropped.
    pub(crate) fn keep(&mut self, checkpoint: Checkpoint) -> Vec<String> {
        let path = checkpoint.path.clone();
        self.kept.retain(|c| c.call_id != checkpoint.call_id);
        self.kept.push(checkpoint);
        let of_file = self.kept.iter().filter(|c| c.path == path).count();
        let mut surplus = of_file.saturating_sub(KEPT_PER_FILE as usize);
        let mut expired = Vec::new();
        self.kept.retain(|c| {
            if surplus > 0 && c.path == path {
                surplus -= 1;
                expired.push(c.call_id.clone());
                return false;
            }
            true
        });
        expired
    }
}
