//! The notes the engine adds to the history for the model as user messages: an undone change
//! ([`undo`](super::undo)) and a retry after a cut-off answer ([`retry`](super::retry)). They are
//! not the person's messages: a reopened conversation does not show them, and they do not count
//! when a message of the person is found by its place (a branch).

use super::retry::is_retry_note;
use super::undo::is_undo_note;

/// Whether `text`, a user message in the history, is one of the engine's notes to the model.
pub fn is_model_note(text: &str) -> bool {
    is_undo_note(text) || is_retry_note(text)
}
