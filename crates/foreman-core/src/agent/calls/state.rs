//! [`Oversight`]: what the user's oversight of the calls is made of — the approval policy the
//! gate asks, how many calls went through without asking, the sandbox commands run in
//! ([`Sandboxing`]), how often a waiting approval looks at its file again, and how many failures
//! pause a task.

use std::path::PathBuf;
use std::time::Duration;

use super::sandboxing::Sandboxing;
use crate::approval::{Policy, content_hash};
use crate::tools::Prepared;

/// What decides whether a call runs without asking, how its command is confined, and when a
/// task pauses: the user's oversight of the calls.
#[derive(Debug)]
pub(crate) struct Oversight {
    pub(crate) policy: Policy,
    /// Calls that changed something without asking since the user's last message.
    pub(crate) auto_approved: u32,
    /// Consecutive failures of one tool that pause the task.
    pub(crate) pause_after: u32,
    /// How often a waiting approval re-checks its file when the watcher does not report it.
    pub(crate) poll: Duration,
    /// How commands are confined.
    pub(crate) sandbox: Sandboxing,
    /// Changes the person approved when an external agent asked for permission: the file and
    /// the hash of what it was to become. The agent's write of exactly that does not ask again.
    pub(crate) approved_changes: Vec<(PathBuf, String)>,
}

impl Oversight {
    /// Whether `prepared` writes a change the person approved already (it is used up).
    pub(crate) fn was_approved(&mut self, prepared: &Prepared) -> bool {
        if self.approved_changes.is_empty() {
            return false;
        }
        let Some(change) = prepared.change() else {
            return false;
        };
        let key = (change.path, content_hash(change.new.as_bytes()));
        match self.approved_changes.iter().position(|k| *k == key) {
            Some(at) => {
                self.approved_changes.remove(at);
                true
            }
            None => false,
        }
    }
}
