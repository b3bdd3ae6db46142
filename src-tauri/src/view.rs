//! What the commands return to the UI. TypeScript types in `ui/src/protocol/` are generated from
//! these (see `bindings_are_up_to_date`).

use foreman_core::store::RecentWorkspace;
use serde::Serialize;
use ts_rs::TS;

/// An open workspace, as the header shows it.
#[derive(Debug, Clone, Serialize, TS)]
pub struct WorkspaceView {
    pub name: String,
    pub path: String,
}

/// The first screen the UI shows.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(tag = "screen", rename_all = "snake_case")]
pub enum StartupView {
    /// A workspace opened: the folder from the command line, or (`reloaded`) the one the window
    /// showed before its page was loaded again, with the session it had open.
    Workspace {
        workspace: WorkspaceView,
        /// The session to open at once.
        session: Option<String>,
        /// The page was loaded again because its web process ended unexpectedly.
        reloaded: bool,
    },
    /// The welcome screen, with why a folder from the command line could not be opened, if so.
    Welcome {
        recent: Vec<RecentWorkspace>,
        error: Option<String>,
    },
    /// The database could not be opened; the UI offers to move it aside.
    StoreError {
        path: String,
        message: String,
        can_move_aside: bool,
    },
}

/// An error a command returns; its message is written for the user.
#[derive(Debug, Clone, Serialize, TS)]
pub struct CommandError {
    pub message: String,
}

impl CommandError {
    /// An error with `message` for the user.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl<E: std::fmt::Display> From<E> for CommandError {
    fn from(error: E) -> Self {
        Self {
            message: error.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreman_protocol::bindings::assert_bindings_current;

    #[test]
    fn bindings_are_up_to_date() {
        assert_bindings_current::<WorkspaceView>();
        assert_bindings_current::<StartupView>();
        assert_bindings_current::<CommandError>();
    }
}
