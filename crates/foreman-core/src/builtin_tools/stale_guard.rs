//! The stale-read guard: the agent may only overwrite or edit a file whose current content it has
//! read in this session. Baselines are content hashes (SHA-256), never timestamps; every read and
//! every successful write or edit by the agent refreshes them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use sha2::{Digest, Sha256};
use thiserror::Error;

/// SHA-256 of a file's bytes.
pub type ContentHash = [u8; 32];

/// Hashes file content for the tracker.
pub fn content_hash(bytes: &[u8]) -> ContentHash {
    Sha256::digest(bytes).into()
}

/// Why a write or edit was refused by the guard.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StaleReadError {
    /// The file exists but the agent has not read it in this session.
    #[error(
        "STALE_READ: {path} has not been read in this session. Read it with the read tool first, \
         then retry the change."
    )]
    NotRead { path: String },
    /// The file changed on disk since the agent last read it.
    #[error(
        "STALE_READ: {path} has changed since you last read it (someone else modified it). Read it \
         again with the read tool and redo the change against its current content."
    )]
    Changed { path: String },
}

/// Per-session record of the content hash of every file the agent read or wrote. Cheap to clone;
/// clones share the same record.
#[derive(Debug, Clone, Default)]
pub struct ReadTracker {
    inner: Arc<Mutex<HashMap<PathBuf, ContentHash>>>,
}

impl ReadTracker {
    /// An empty tracker for a new session.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<PathBuf, ContentHash>> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records `hash` as the baseline for `path` (after a read or a successful write/edit).
    pub fn record(&self, path: &Path, hash: ContentHash) {
        self.lock().insert(path.to_path_buf(), hash);
    }

    /// The baseline recorded for `path`, if any.
    pub fn baseline(&self, path: &Path) -> Option<ContentHash> {
        self.lock().get(path).copied()
    }

    /// Checks that the agent's baseline for `path` matches `current` (the bytes on disk now).
    /// `shown` is the path as displayed in the error.
    pub fn ensure_fresh(
        &self,
        path: &Path,
        current: &[u8],
        shown: &str,
    ) -> Result<(), StaleReadError> {
        match self.baseline(path) {
            None => Err(StaleReadError::NotRead {
                path: shown.to_string(),
            }),
            Some(hash) if hash != content_hash(current) => Err(StaleReadError::Changed {
                path: shown.to_string(),
            }),
            Some(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unread_file_is_refused() {
        let t = ReadTracker::new();
        let err = t.ensure_fresh(Path::new("/w/a"), b"x", "a").unwrap_err();
        assert_eq!(err, StaleReadError::NotRead { path: "a".into() });
        assert!(err.to_string().contains("Read it"));
    }

    #[test]
    fn changed_content_is_refused_and_reread_refreshes() {
        let t = ReadTracker::new();
        let p = Path::new("/w/a");
        t.record(p, content_hash(b"one"));
        assert!(t.ensure_fresh(p, b"one", "a").is_ok());
        assert_eq!(
            t.ensure_fresh(p, b"two", "a"),
            Err(StaleReadError::Changed { path: "a".into() })
        );
        t.record(p, content_hash(b"two"));
        assert!(t.ensure_fresh(p, b"two", "a").is_ok());
    }

    #[test]
    fn clones_share_state() {
        let t = ReadTracker::new();
        let c = t.clone();
        c.record(Path::new("/w/b"), content_hash(b"b"));
        assert_eq!(t.baseline(Path::new("/w/b")), Some(content_hash(b"b")));
    }
}
