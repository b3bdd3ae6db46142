//! What the built-in tools share within one agent session: the workspace boundary, the read
//! tracker for the stale-read guard, the task list and the session's data directory.

use std::path::PathBuf;
use std::sync::Arc;

use super::stale_guard::ReadTracker;
use super::todo_list::TodoList;
use crate::boundary::WorkspaceBoundary;

/// Per-session state handed to every built-in tool. Cheap to clone; clones share state.
#[derive(Debug, Clone)]
pub struct BuiltinSession {
    /// The workspace boundary all paths are checked against.
    pub boundary: Arc<WorkspaceBoundary>,
    /// Content hashes of what the agent read or wrote (stale-read guard).
    pub reads: ReadTracker,
    /// The session's task list.
    pub todos: TodoList,
    /// Directory for session artefacts (e.g. full bash output).
    pub data_dir: PathBuf,
    /// Variables every command gets (a task's `FOREMAN_PORT`).
    pub env: Vec<(String, String)>,
}

impl BuiltinSession {
    /// A fresh session over `boundary`, storing artefacts under `data_dir`.
    pub fn new(boundary: WorkspaceBoundary, data_dir: PathBuf) -> Self {
        Self {
            boundary: Arc::new(boundary),
            reads: ReadTracker::new(),
            todos: TodoList::new(),
            data_dir,
            env: Vec::new(),
        }
    }
}
