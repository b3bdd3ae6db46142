//! What the user does to workspace files through the session, outside any tool call: write
//! their version of a change, keep a file's bytes before a change, and undo a change (what a
//! message attaches is read by `attach`, in `crate::attachments`). Everything goes through the
//! workspace boundary, like the tools.

use super::BuiltinError;
use super::restore::{self, RestoreError};
use super::session::BuiltinSession;
use super::stale_guard::{ContentHash, content_hash};
use super::write::{WriteParams, run_write};
use crate::tools::ToolError;

/// The user's file operations over one workspace.
#[derive(Debug, Clone)]
pub struct WorkspaceFiles {
    session: BuiltinSession,
}

impl WorkspaceFiles {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }

    /// The session the operations go through (its boundary and read tracker).
    pub fn session(&self) -> &BuiltinSession {
        &self.session
    }

    /// Writes `content` to `path` on the user's authority (their version of a change, or the
    /// hunks they chose), only while the file still has the bytes they saw: `seen` is their
    /// hash (`None`: there was no file). Anything written since is never overwritten. `Ok` is
    /// the text for the model.
    pub async fn write_as_user(
        &self,
        path: &str,
        content: String,
        seen: Option<ContentHash>,
    ) -> Result<String, ToolError> {
        let boundary = &self.session.boundary;
        let resolved = boundary.resolve(path).map_err(super::BuiltinError::from)?;
        let now = std::fs::read(&resolved).ok().map(|b| content_hash(&b));
        if now != seen {
            return Err(ToolError::new(
                "FILE_CHANGED",
                format!(
                    "{} changed after the preview the user answered was made, so nothing was \
                     written; the file keeps what it has now. Read it again before changing it.",
                    boundary.display_relative(&resolved)
                ),
            ));
        }
        if let Some(hash) = now {
            // The user saw the file and chose this content: the stale-read guard is theirs.
            self.session.reads.record(&resolved, hash);
        }
        let output = run_write(
            &self.session,
            WriteParams {
                path: path.to_owned(),
                content,
            },
        )
        .await?;
        Ok(output.render())
    }

    /// The bytes of `path` now (`None`: no such file), kept before a call changes it so the
    /// user can undo the change; `Err` when they cannot be kept, with the reason.
    pub fn file_bytes(&self, path: &str) -> Result<Option<Vec<u8>>, BuiltinError> {
        restore::file_bytes(&self.session.boundary, path)
    }

    /// Records that the agent knows `path` as hashing to `hash` (a hook rewrote the file after
    /// the agent's change and the agent was shown how).
    pub fn mark_read(&self, path: &str, hash: ContentHash) {
        if let Ok(resolved) = self.session.boundary.resolve(path) {
            self.session.reads.record(&resolved, hash);
        }
    }

    /// Puts `before` back into `path` (removes it when `None`) if its bytes now hash to `left`,
    /// what the call left. The agent's read baselines stay as they were, so it must read the
    /// file again before changing it. `Err` is the reason for the user.
    pub fn restore_file(
        &self,
        path: &str,
        before: Option<&[u8]>,
        left: &[u8; 32],
    ) -> Result<(), RestoreError> {
        restore::restore_file(&self.session.boundary, path, before, left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::WorkspaceBoundary;

    #[tokio::test]
    async fn the_users_version_is_written_only_over_what_they_saw() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
        let boundary = WorkspaceBoundary::new(dir.path()).unwrap();
        let files = WorkspaceFiles::new(BuiltinSession::new(boundary, dir.path().join(".data")));
        let seen = Some(content_hash(b"one\ntwo\n"));
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
        let refused = files.write_as_user("a.txt", "mine\n".into(), seen).await;
        assert!(
            refused
                .unwrap_err()
                .message
                .contains("changed after the preview the user answered")
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "one\ntwo\nthree\n"
        );
        // A file the user saw absent must still be absent.
        std::fs::write(dir.path().join("new.txt"), "someone else's\n").unwrap();
        assert!(
            files
                .write_as_user("new.txt", "mine\n".into(), None)
                .await
                .is_err()
        );
        let now = Some(content_hash(b"one\ntwo\nthree\n"));
        files
            .write_as_user("a.txt", "mine\n".into(), now)
            .await
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "mine\n"
        );
        files
            .write_as_user("other.txt", "created\n".into(), None)
            .await
            .unwrap();
    }
}
