//! Undoing a file change the agent made. Before a call that changes a file runs, the file's bytes
//! are kept; once the call succeeded they become the call's checkpoint (in the store, so the undo
//! is still there after a restart and a long session does not hold every version in memory; in
//! memory only for a session without a store) and the card offers an undo. `undo_change` puts
//! the bytes back only while the file still has exactly what the call left, so it never
//! overwrites anything written since; changes to one file are undone newest first. The model is
//! told, and its read baselines are left alone, so it reads the file again before changing it.

use crate::agent::calls::preview::{diff_preview_within, event_bytes};
use crate::agent::engine::Engine;
use crate::agent::undo::state::{KEPT_PER_FILE, UndoError};
use crate::builtin_tools::stale_guard::content_hash;
use crate::conversation::notes::UNDO_NOTE_START;
use crate::diff::{DiffLimits, line_counts};
use crate::protocol::{EventMsg, FilePreview, PREVIEW_LINES_SENT, UndoState};
use crate::store::Checkpoint;
use crate::store::now_ms;

/// The most a diff sent for a change that went through without a question may take in an
/// event (about); a larger one is not sent, and the card keeps its line counts.
pub const AUTO_DIFF_BYTES: usize = 128 << 10;

/// The bounds of that diff: the next request waits for it, and it is only for the card, so a
/// change that cannot be diffed within 100 ms keeps its line counts, as one too big to send
/// does, rather than hold the model up for a preview's full time.
const AUTO_DIFF_LIMITS: DiffLimits = DiffLimits {
    deadline: std::time::Duration::from_millis(100),
    ..DiffLimits::DEFAULT
};

impl Engine {
    /// The bytes of `path` before a call changes it; `None` when they cannot be kept (the call
    /// then runs without an undo).
    pub(crate) fn bytes_before(&self, path: &str) -> Option<Option<Vec<u8>>> {
        self.tools.files.file_bytes(path).ok()
    }

    /// After call `call_id` changed `path` successfully: keeps what it replaced and offers the
    /// undo on its card.
    pub(crate) async fn keep_checkpoint(
        &mut self,
        call_id: &str,
        path: &str,
        before: Option<Vec<u8>>,
    ) {
        let Ok(Some(after)) = self.tools.files.file_bytes(path) else {
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
        let saved = match self.persist.store().cloned() {
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
            None => self.changes.undo.keep(checkpoint),
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
    /// arguments), and the exact counts otherwise. Not for a file the call created: the card has
    /// its whole content already. Diffed off the engine's task, within [`AUTO_DIFF_LIMITS`].
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
            let preview = diff_preview_within(&shown, Some(&old), &new, AUTO_DIFF_LIMITS);
            let sent = preview.diff.as_ref().is_some_and(|d| {
                !d.approximate && event_bytes(&d.first_lines(PREVIEW_LINES_SENT)) <= AUTO_DIFF_BYTES
            });
            if sent {
                return preview;
            }
            // The live counts were of the content as it streamed, and bounded: the exact ones.
            let counts = line_counts(&old, &new);
            FilePreview {
                lines_added: u32::try_from(counts.added).unwrap_or(u32::MAX),
                lines_removed: u32::try_from(counts.removed).unwrap_or(u32::MAX),
                diff: None,
                ..preview
            }
        })
        .await;
        if let Ok(preview) = diffed {
            self.calls.show_preview(&mut self.events, call_id, preview);
        }
    }

    /// Answers `undo_change` for `call_id`.
    pub(crate) async fn undo_change(&mut self, call_id: &str) {
        if self.changes.undo.changing {
            return self.refuse_undo(call_id, &UndoError::Busy);
        }
        let checkpoint = match self.checkpoint_of(call_id).await {
            Ok(found) => found,
            Err(e) => return self.refuse_undo(call_id, &e.into()),
        };
        let Some(checkpoint) = checkpoint else {
            return self.refuse_undo(call_id, &UndoError::Nothing);
        };
        let path = &checkpoint.path;
        if let Err(reason) = self.tools.files.restore_file(
            path,
            checkpoint.before.as_deref(),
            &checkpoint.after_hash,
        ) {
            return self.refuse_undo(call_id, &reason.into());
        }
        self.changes.undo.kept.retain(|c| c.call_id != call_id);
        if let Some(store) = self.persist.store().cloned()
            && let Err(e) = store.mark_undone(&self.id, call_id, now_ms()).await
        {
            self.store_failed(&e);
        }
        self.changes.undo.notes.push(match checkpoint.before {
            None => format!(
                "{UNDO_NOTE_START}{call_id} made to `{path}`: the file it created is gone again."
            ),
            Some(_) => format!(
                "{UNDO_NOTE_START}{call_id} made to `{path}`: the file has its content from before that \
                 call again. Read it before you change it."
            ),
        });
        self.calls
            .set_undo(&mut self.events, call_id, UndoState::Done);
    }

    pub(crate) fn refuse_undo(&mut self, call_id: &str, reason: &UndoError) {
        self.events.emit(EventMsg::UndoRefused {
            call_id: call_id.to_owned(),
            reason: reason.to_string(),
        });
    }

    /// Tells the model of the changes undone since it was last told, in the history.
    pub(crate) async fn record_undo_note(&mut self) {
        if let Some(note) = self.changes.undo.take_note() {
            self.record(crate::providers::Message::user(note)).await;
        }
    }
}
