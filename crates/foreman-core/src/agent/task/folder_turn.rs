//! A task in the folder itself takes the folder while its agent works: two tasks in one folder
//! would change the same files. A task that finds another working there says so
//! ([`EventMsg::Waiting`]) and starts by itself when the folder is free; ops are answered
//! meanwhile, so Stop ends the wait. The folder is given back when the task ends, so an idle
//! session holds nothing.

use std::time::Duration;

use crate::agent::engine::Engine;
use crate::protocol::EventMsg;
use crate::tasks::locks::{FolderTurn, Held};

/// How often a waiting task looks again.
const POLL: Duration = Duration::from_millis(300);

impl Engine {
    /// Takes the folder for the task starting now (`None`: the session is not such a task, the
    /// lock could not be made, or the user stopped the wait; see `task.cancel`).
    pub(crate) async fn take_folder(&mut self) -> Option<Held> {
        let turn: FolderTurn = self.task.folder_turn.clone()?;
        let mut told = false;
        loop {
            match turn.try_take() {
                Ok(Ok(held)) => return Some(held),
                Ok(Err(holder)) => {
                    if !told {
                        told = true;
                        self.events.emit(EventMsg::Waiting {
                            message: FolderTurn::waiting_for(&holder),
                        });
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "cannot take the folder; the task runs without");
                    return None;
                }
            }
            tokio::select! {
                () = tokio::time::sleep(POLL) => {}
                input = self.inbox.next() => {
                    if let Some(op) = self.take_op(input) {
                        self.handle_side_op(op).await;
                    }
                }
            }
            if self.task.cancel.is_cancelled() || self.task.shutdown {
                return None;
            }
        }
    }
}
