//! [`ContextNotes`]: what the model is told with the next message it takes, besides the
//! message: the session-context note before a new session's first message (`notes`), and what
//! hooks gave as context.

/// The notes that wait for the next message the model takes.
#[derive(Debug, Default)]
pub(crate) struct ContextNotes {
    /// The session is new: its first message gets the session-context note before it.
    pub(crate) note_due: bool,
    /// The session-context note, asked for when the session started.
    pub(crate) note: Option<tokio::task::JoinHandle<String>>,
    /// What hooks gave as context (`SessionStart`, `UserPromptSubmit`), for the model with the
    /// next message it takes.
    pub(crate) from_hooks: Vec<String>,
}
