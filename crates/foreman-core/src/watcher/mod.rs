//! Watching the workspace for changes made outside the agent (an editor, git, a build).
//!
//! Raw file-system notifications are filtered (`.git/` internals, paths ignored by the
//! workspace's `.gitignore` / `.ignore` files, and the default excludes) and debounced into one
//! [`FilesChanged`] batch per quiet period. The loop uses the batches to invalidate stale reads
//! and to recompute diff previews that wait for approval; the UI shows them.

mod filter;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use serde::Serialize;
use thiserror::Error;
use tokio::sync::mpsc;
use ts_rs::TS;

pub use filter::ChangeFilter;

/// A debounced batch of changed paths, relative to the workspace root, sorted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct FilesChanged {
    pub paths: Vec<String>,
}

#[derive(Debug, Error)]
pub enum WatchError {
    #[error("cannot watch {path}: {reason}")]
    Start { path: PathBuf, reason: String },
}

/// A running watcher; dropping it stops watching.
pub struct WorkspaceWatcher {
    _watcher: RecommendedWatcher,
    _task: tokio::task::JoinHandle<()>,
}

impl WorkspaceWatcher {
    /// Starts watching `root` recursively; batches arrive on the returned receiver after
    /// `debounce` without further changes. Needs a Tokio runtime.
    pub fn start(
        root: &Path,
        debounce: Duration,
    ) -> Result<(Self, mpsc::UnboundedReceiver<FilesChanged>), WatchError> {
        let root = root.canonicalize().map_err(|e| WatchError::Start {
            path: root.to_path_buf(),
            reason: e.to_string(),
        })?;
        let filter = ChangeFilter::new(&root);
        let (raw_tx, mut raw_rx) = mpsc::unbounded_channel::<PathBuf>();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                if let Ok(event) = event {
                    if matches!(event.kind, notify::EventKind::Access(_)) {
                        return;
                    }
                    for path in event.paths {
                        let _ = raw_tx.send(path);
                    }
                }
            })
            .map_err(|e| WatchError::Start {
                path: root.clone(),
                reason: e.to_string(),
            })?;
        watcher
            .watch(&root, RecursiveMode::Recursive)
            .map_err(|e| WatchError::Start {
                path: root.clone(),
                reason: e.to_string(),
            })?;

        let (tx, rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(async move {
            let mut pending = BTreeSet::new();
            loop {
                let next = if pending.is_empty() {
                    raw_rx.recv().await
                } else {
                    match tokio::time::timeout(debounce, raw_rx.recv()).await {
                        Ok(next) => next,
                        Err(_) => {
                            let paths: Vec<String> =
                                std::mem::take(&mut pending).into_iter().collect();
                            if tx.send(FilesChanged { paths }).is_err() {
                                return;
                            }
                            continue;
                        }
                    }
                };
                match next {
                    Some(path) => {
                        if let Some(relative) = filter.relevant(&path) {
                            pending.insert(relative);
                        }
                    }
                    None => return,
                }
            }
        });
        Ok((
            Self {
                _watcher: watcher,
                _task: task,
            },
            rx,
        ))
    }
}

impl Drop for WorkspaceWatcher {
    fn drop(&mut self) {
        self._task.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn next_batch(rx: &mut mpsc::UnboundedReceiver<FilesChanged>) -> FilesChanged {
        tokio::time::timeout(Duration::from_secs(10), rx.recv())
            .await
            .unwrap()
            .unwrap()
    }

    #[tokio::test]
    async fn reports_changes_debounced_and_skips_ignored_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".gitignore"), "build/\n*.log\n").unwrap();
        std::fs::create_dir_all(root.join("build")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        let (_watcher, mut rx) = WorkspaceWatcher::start(root, Duration::from_millis(150)).unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;

        std::fs::write(root.join("build/out.o"), "x").unwrap();
        std::fs::write(root.join("debug.log"), "x").unwrap();
        std::fs::write(root.join(".git/index"), "x").unwrap();
        std::fs::write(root.join("src/main.rs"), "fn main() {}").unwrap();
        std::fs::write(root.join("src/main.rs"), "fn main() { }").unwrap();

        let batch = next_batch(&mut rx).await;
        assert!(batch.paths.contains(&"src/main.rs".to_owned()), "{batch:?}");
        for ignored in ["build/out.o", "debug.log", ".git/index"] {
            assert!(
                !batch.paths.iter().any(|p| p == ignored),
                "{ignored} reported: {batch:?}"
            );
        }
        assert_eq!(
            batch.paths.iter().filter(|p| *p == "src/main.rs").count(),
            1
        );
    }

    #[test]
    fn a_missing_root_is_a_clear_error() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let _guard = runtime.enter();
        let err = WorkspaceWatcher::start(Path::new("/no/such/dir/x"), Duration::from_millis(10))
            .err()
            .unwrap();
        assert!(err.to_string().contains("/no/such/dir/x"));
    }

    #[test]
    fn bindings_are_up_to_date() {
        crate::bindings::assert_bindings_current::<FilesChanged>();
    }
}
