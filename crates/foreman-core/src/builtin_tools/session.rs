//! What the built-in tools share within one agent session: the workspace boundary, the read
//! tracker for the stale-read guard, the task list, the session's data directory, and the skills
//! with the folders `read` reaches for them.

use std::path::PathBuf;
use std::sync::Arc;

use super::error::BuiltinError;
use super::read_roots::ReadRoots;
use super::skill_text::Skill;
use super::stale_guard::ReadTracker;
use super::todo_list::TodoList;
use crate::boundary::WorkspaceBoundary;
use crate::checkpoints::Coverage;

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
    /// The skills found when the session started (the `skill` tool's).
    pub skills: Arc<Vec<Skill>>,
    /// The folders `read` reaches besides the workspace: the skills' folders.
    pub read_roots: ReadRoots,
    /// What the session's checkpoints keep: a command that would delete more asks first.
    pub coverage: Arc<Coverage>,
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
            skills: Arc::new(Vec::new()),
            read_roots: ReadRoots::default(),
            coverage: Arc::new(Coverage::default()),
        }
    }

    /// Runs `work` on a thread of its own, where it may block (read, write, fsync, diff a big
    /// file) without holding up the session's task, which keeps answering the user meanwhile.
    pub async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Self) -> Result<T, BuiltinError> + Send + 'static,
    ) -> Result<T, BuiltinError> {
        let session = self.clone();
        tokio::task::spawn_blocking(move || work(&session))
            .await
            .map_err(|e| BuiltinError::Io {
                path: self.boundary.root().to_path_buf(),
                source: std::io::Error::other(e),
            })?
    }

    /// The same session with `skills`, whose folders `read` may reach (never `home` itself or
    /// a folder above it).
    pub fn with_skills(mut self, skills: Vec<Skill>, home: Option<&std::path::Path>) -> Self {
        self.read_roots = ReadRoots::new(skills.iter().map(|s| s.dir.clone()), home);
        self.skills = Arc::new(skills);
        self
    }
}
