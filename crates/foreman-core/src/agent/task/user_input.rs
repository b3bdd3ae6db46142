//! A message of the user as it waits for the model: its text and what it asks to attach. The
//! attachments are read when the model takes the message ([`Engine::take_message`](crate::agent::engine::Engine)),
//! so a queued message attaches files as they are when the model reads it. A `/command` is
//! expanded when the message arrives, so a missing argument is refused at once.

use crate::protocol::{AttachInput, ImageInput};
use crate::slash::Expanded;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UserInput {
    /// What the user typed (`/review 42`): what the conversation shows.
    pub(crate) text: String,
    pub(crate) attach: Vec<AttachInput>,
    /// The command or skill its `/name` runs, as the model reads it (see `slash_input`).
    pub(crate) slash: Option<Expanded>,
}

impl UserInput {
    /// The images it carries (its paths are mentioned in its text).
    pub(crate) fn images(&self) -> impl Iterator<Item = &ImageInput> {
        self.attach.iter().filter_map(|a| match a {
            AttachInput::Image(image) => Some(image),
            AttachInput::Path { .. } => None,
        })
    }
}
