//! What a running call gets besides its input: the cancel token, and the user's channel
//! ([`CallContext::output`], [`CallContext::images`], [`CallContext::status`]). Nothing sent here
//! reaches the model; the model gets the call's [`ToolOutput`](super::ToolOutput).

use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::protocol::CallImages;
use crate::sandbox::SandboxPolicy;

/// Something a running call shows the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallOutput {
    /// Live text (a command's stdout and stderr), appended to what came before.
    Text(String),
    /// The images of the result (the model gets a note about them).
    Images(CallImages),
    /// The card's progress line (`412 files searched`), replacing the one before.
    Status(String),
}

/// Where a running call's output for the user goes: `(call id, output)` pairs.
#[derive(Debug, Clone)]
pub struct OutputSink {
    call_id: String,
    sender: UnboundedSender<(String, CallOutput)>,
}

impl OutputSink {
    pub fn new(call_id: impl Into<String>, sender: UnboundedSender<(String, CallOutput)>) -> Self {
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

    fn send(&self, output: CallOutput) {
        // A receiver that has gone away is not an error: nobody is watching.
        let _ = self.sender.send((self.call_id.clone(), output));
    }

    /// Appends live text (nothing for empty text).
    pub fn text(&self, text: &str) {
        if !text.is_empty() {
            self.send(CallOutput::Text(text.to_owned()));
        }
    }

    /// The images of the call's result (nothing when there are none).
    pub fn images(&self, images: CallImages) {
        if !images.is_empty() {
            self.send(CallOutput::Images(images));
        }
    }

    /// Replaces the card's progress line.
    pub fn status(&self, line: impl Into<String>) {
        self.send(CallOutput::Status(line.into()));
    }
}

/// A running call's context.
#[derive(Debug, Clone)]
pub struct CallContext {
    /// Cancelled when the user stops the task or the call overruns its timeout.
    pub cancel: CancellationToken,
    /// The user's channel.
    pub sink: OutputSink,
    /// The sandbox a command of this call runs in (`None`: unconfined).
    pub sandbox: Option<SandboxPolicy>,
}

impl CallContext {
    pub fn new(cancel: CancellationToken, sink: OutputSink) -> Self {
        Self {
            cancel,
            sink,
            sandbox: None,
        }
    }

    /// The same, with its commands confined to `sandbox`.
    pub fn confined(self, sandbox: Option<SandboxPolicy>) -> Self {
        Self { sandbox, ..self }
    }

    /// A context that shows nothing and is never cancelled (tests, tools run by hand).
    pub fn detached() -> Self {
        Self::new(CancellationToken::new(), OutputSink::discard())
    }
}
