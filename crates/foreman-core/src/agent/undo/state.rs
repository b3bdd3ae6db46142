//! What the undo keeps in memory: the checkpoints of a session without a store (the newest
//! [`KEPT_PER_FILE`] of each file) and the notes about undone changes the model has not read.

use crate::builtin_tools::BuiltinError;
use crate::builtin_tools::restore::RestoreError;
use crate::diff::HunkChoiceError;
use crate::store::{Checkpoint, StoreError};

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

    /// What the model has not been told about undone changes, as one message; taken.
    pub(crate) fn take_note(&mut self) -> Option<String> {
        if self.notes.is_empty() {
            return None;
        }
        Some(std::mem::take(&mut self.notes).join("\n"))
    }
}

/// Why an undo was refused; the text is what the user reads on the card.
#[derive(Debug, thiserror::Error)]
pub enum UndoError {
    #[error("A file is being changed right now; undo when that call has finished.")]
    Busy,
    #[error(
        "There is nothing to undo here: it changed no file, or its change was undone \
         already."
    )]
    Nothing,
    #[error("This call created the file, so its change is undone whole: use Undo this change.")]
    Created,
    #[error("{0} is gone, so there is nothing to undo in it.")]
    Gone(String),
    #[error(
        "{0} changed since this change (or its last partial undo), so nothing was undone; the file \
         keeps what it has now."
    )]
    ChangedSince(String),
    #[error("The file is not UTF-8 text: undo this change whole.")]
    NotText,
    #[error("This change is too large to undo in part: undo it whole.")]
    TooLarge,
    #[error("The change shown no longer matches the file; undo it whole, or look again.")]
    Mismatch,
    #[error("No hunk was chosen.")]
    NoHunk,
    #[error(transparent)]
    Hunks(#[from] HunkChoiceError),
    #[error(transparent)]
    Read(#[from] BuiltinError),
    #[error(transparent)]
    Restore(#[from] RestoreError),
    #[error(transparent)]
    Store(#[from] StoreError),
}
