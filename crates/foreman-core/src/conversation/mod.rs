//! The conversation: what a stored session is and what the app and the CLI do with one —
//! open it to run again ([`resume`]), read it back as the user saw it ([`transcript`]), branch
//! it before a message ([`branch`]), and see what it changed in the workspace
//! ([`net_change`]). This is the one API the shell and the CLI call; the running agent is
//! the engine's loop. The engine's notes to the model ([`notes`]) are kept out of what the user
//! reads.

pub mod branch;
pub mod net_change;
pub mod notes;
pub mod resume;
pub mod transcript;

pub use self::branch::branch_before_message;
pub use self::net_change::net_change;
pub use self::resume::{interrupted_text, load_for_resume, open_session};
pub use self::transcript::{Transcript, TranscriptItem, load_transcript};
