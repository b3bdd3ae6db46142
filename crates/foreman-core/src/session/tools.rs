//! The boundary between the session and the tools it runs.
//!
//! The session needs four things from its tools: their definitions for the model, the facts an
//! approval decision is made on, the file change a call proposes (for the diff preview), and a way
//! to run a call. [`ToolBackend`] is exactly that, so the session does not depend on how tools are
//! implemented ([`BuiltinBackend`](super::builtin_backend::BuiltinBackend) wraps the built-ins).

use std::path::PathBuf;

use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::builtin_tools::stale_guard::ContentHash;
use crate::protocol::CallImages;
use crate::providers::ToolDefinition;

pub use crate::approval::{ActionClass, CallFacts};

/// The new content a file tool would write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposedChange {
    /// Absolute path.
    pub path: PathBuf,
    /// Workspace-relative path for display.
    pub shown: String,
    /// The current content, `None` when the file does not exist.
    pub old: Option<String>,
    /// The content after the call.
    pub new: String,
}

/// A tool's answer: the text for the model, or an error for the model.
pub type ToolOutcome = Result<String, String>;

/// What a running call shows the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallOutput {
    /// Live text (a command's stdout and stderr, progress lines), appended to what came before.
    Text(String),
    /// The images of the result (the model gets a note about them in the outcome).
    Images(CallImages),
}

/// Where a running call sends what is for the person only: live output (a command's stdout and
/// stderr as they arrive) and the images of its result. What is sent here is shown, never given
/// to the model; the model gets the outcome.
#[derive(Debug, Clone)]
pub struct OutputSink {
    call_id: String,
    sender: tokio::sync::mpsc::UnboundedSender<(String, CallOutput)>,
}

impl OutputSink {
    /// A sink for `call_id` feeding `sender` with `(call_id, output)` pairs.
    pub fn new(
        call_id: impl Into<String>,
        sender: tokio::sync::mpsc::UnboundedSender<(String, CallOutput)>,
    ) -> Self {
        Self {
            call_id: call_id.into(),
            sender,
        }
    }

    /// A sink that drops everything (for callers that show nothing live).
    pub fn discard() -> Self {
        let (sender, _) = tokio::sync::mpsc::unbounded_channel();
        Self::new(String::new(), sender)
    }

    /// Sends `text` (a receiver that has gone away is not an error: nobody is watching).
    pub fn send(&self, text: &str) {
        if !text.is_empty() {
            let _ = self
                .sender
                .send((self.call_id.clone(), CallOutput::Text(text.to_owned())));
        }
    }

    /// Sends the images of the call's result (nothing when there are none).
    pub fn images(&self, images: CallImages) {
        if !images.is_empty() {
            let _ = self
                .sender
                .send((self.call_id.clone(), CallOutput::Images(images)));
        }
    }
}

/// The tools a session can call.
pub trait ToolBackend: Send + Sync + std::fmt::Debug {
    /// Definitions sent to the model.
    fn definitions(&self) -> Vec<ToolDefinition>;

    /// Validates `arguments` and classifies the call; `Err` is the message for the model
    /// (unknown tool, invalid parameters, path outside the workspace).
    fn facts(&self, name: &str, arguments: &Value) -> Result<CallFacts, String>;

    /// For file-changing calls, what the file would become (`None` for other tools, or when the
    /// change cannot be computed; the call itself will then report why).
    fn proposed_change(&self, name: &str, arguments: &Value) -> Option<ProposedChange>;

    /// A one-line progress text for the card while the call runs.
    fn status(&self, name: &str, arguments: &Value) -> Option<String>;

    /// Runs the call. Cancelling `cancel` stops it (running processes are killed); live output
    /// for the person goes to `output`.
    fn execute(
        &self,
        name: &str,
        arguments: Value,
        cancel: CancellationToken,
        output: OutputSink,
    ) -> BoxFuture<'static, ToolOutcome>;

    /// Writes `content` to the workspace file `path` on the person's authority (their version of
    /// a change, or the hunks of it they chose), only while the file still has the bytes they saw:
    /// `seen` is their hash (`None`: there was no file). Anything written since is never
    /// overwritten; the answer then says so.
    fn write_as_person(
        &self,
        path: &str,
        content: String,
        seen: Option<ContentHash>,
    ) -> BoxFuture<'static, ToolOutcome>;

    /// The bytes of the workspace file `path` now (`None`: there is no such file), kept before a
    /// call changes it so the person can undo the change; `Err` when they cannot be kept (a
    /// directory, too large, unreadable), with the reason.
    fn file_bytes(&self, path: &str) -> Result<Option<Vec<u8>>, String>;

    /// Undoes a call's change on the person's authority: puts `before` back into the workspace
    /// file `path` (removes it when `None`) if its bytes now hash to `left`, what the call left.
    /// `Err` is the reason for the person; nothing was changed then.
    fn restore_file(
        &self,
        path: &str,
        before: Option<&[u8]>,
        left: &[u8; 32],
    ) -> Result<(), String>;
}
