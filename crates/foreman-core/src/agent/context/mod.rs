//! What the model's context holds besides the conversation, and keeping it inside the window:
//! the byte-stable system prompt ([`prompt`]), the notes that go with the next message
//! (`state`, `notes`: the session-context note, the hooks' context), the token estimates and
//! the elision of old tool outputs ([`window`]), and the summary that replaces older history
//! ([`compaction`]).

pub mod compaction;
pub(super) mod notes;
pub mod prompt;
pub(super) mod state;
pub mod window;
