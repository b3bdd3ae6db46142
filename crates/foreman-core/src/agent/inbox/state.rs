//! [`Inbox`]: what the engine waits on besides its own work — the user's ops and the
//! workspace watcher's batches of changed files — and how a batch is reported.
//!
//! The watcher starts on a blocking thread beside the session's start (a recursive watch walks
//! the whole tree: a quarter of a second at 100,000 files), and is taken in at the next poll;
//! until then approvals poll their file and checkpoints scan everything. It runs for as long as
//! the session (it is dropped with the engine). When it cannot start (an inotify limit, an
//! unwatchable file system) or stops, the session says so in an `Error` event and approvals
//! fall back to polling their file.

use std::path::Path;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;

use crate::protocol::{EventMsg, FILES_CHANGED_LIMIT, Op};
use std::sync::Arc;

use crate::watcher::{ChangeJournal, FilesChanged, WatchError, WatchReport, WorkspaceWatcher};

/// What arrived.
#[derive(Debug)]
pub(crate) enum Input {
    Op(Op),
    Files(FilesChanged),
    /// The watcher hit a limit: what happened and what is done instead.
    WatchTrouble(String),
    /// The watcher's channel closed (it will not report again).
    WatchStopped,
    /// The watcher could not start.
    WatchFailed(WatchError),
}

#[derive(Debug)]
struct Watch {
    watcher: WorkspaceWatcher,
    changes: UnboundedReceiver<WatchReport>,
}

/// The ops and, when the workspace is watched, its changes.
#[derive(Debug)]
pub(crate) struct Inbox {
    ops: UnboundedReceiver<Op>,
    ops_closed: bool,
    watch: Option<Watch>,
    /// The watcher while it starts.
    starting: Option<tokio::task::JoinHandle<Result<Watch, WatchError>>>,
}

impl Inbox {
    /// The ops alone, until [`Inbox::begin_watching`].
    pub(crate) fn new(ops: UnboundedReceiver<Op>) -> Self {
        Self {
            ops,
            ops_closed: false,
            watch: None,
            starting: None,
        }
    }

    /// Starts watching `workspace` on a blocking thread, without waiting; `ready` gets the
    /// watcher's journal as soon as it watches. The watcher is taken in by [`Inbox::next`].
    pub(crate) fn begin_watching(
        &mut self,
        workspace: &Path,
        debounce: Duration,
        ready: impl FnOnce(Arc<ChangeJournal>) + Send + 'static,
    ) {
        let root = workspace.to_path_buf();
        self.starting = Some(tokio::task::spawn_blocking(move || {
            let (watcher, changes) = WorkspaceWatcher::start(&root, debounce)?;
            ready(watcher.journal());
            Ok(Watch { watcher, changes })
        }));
    }

    /// Whether a change of `path` would be reported (false for ignored files, and when not
    /// watching).
    pub(crate) fn reports(&self, path: &Path) -> bool {
        self.watch.as_ref().is_some_and(|w| w.watcher.reports(path))
    }

    /// The next op or batch of changes; a closed op channel reads as one `Shutdown`, then never
    /// again. Cancel-safe.
    pub(crate) async fn next(&mut self) -> Input {
        if let Some(starting) = &mut self.starting {
            let started = tokio::select! {
                op = recv_op(&mut self.ops, &mut self.ops_closed) => return Input::Op(op),
                started = starting => started,
            };
            self.starting = None;
            match started {
                Ok(Ok(watch)) => self.watch = Some(watch),
                Ok(Err(error)) => return Input::WatchFailed(error),
                Err(joined) => {
                    return Input::WatchFailed(WatchError::Start {
                        path: std::path::PathBuf::new(),
                        reason: joined.to_string(),
                    });
                }
            }
        }
        let Some(watch) = &mut self.watch else {
            return Input::Op(recv_op(&mut self.ops, &mut self.ops_closed).await);
        };
        let changes = tokio::select! {
            op = recv_op(&mut self.ops, &mut self.ops_closed) => return Input::Op(op),
            changes = watch.changes.recv() => changes,
        };
        match changes {
            Some(WatchReport::Files(batch)) => Input::Files(batch),
            Some(WatchReport::Trouble(text)) => Input::WatchTrouble(text),
            None => {
                self.watch = None;
                Input::WatchStopped
            }
        }
    }
}

/// Receives the next op; a closed channel reads as one `Shutdown`, then never again.
async fn recv_op(ops: &mut UnboundedReceiver<Op>, closed: &mut bool) -> Op {
    if *closed {
        return std::future::pending().await;
    }
    match ops.recv().await {
        Some(op) => op,
        None => {
            *closed = true;
            Op::Shutdown
        }
    }
}

/// The event for `batch`: at most [`FILES_CHANGED_LIMIT`] paths, `more` counts the rest.
pub(crate) fn files_changed_event(mut batch: FilesChanged) -> EventMsg {
    let more = batch.paths.len().saturating_sub(FILES_CHANGED_LIMIT);
    batch.paths.truncate(FILES_CHANGED_LIMIT);
    EventMsg::FilesChanged {
        paths: batch.paths,
        more: u32::try_from(more).unwrap_or(u32::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_batch_is_cut_with_a_count_of_the_rest() {
        let paths: Vec<String> = (0..FILES_CHANGED_LIMIT + 5)
            .map(|i| format!("f{i:04}"))
            .collect();
        match files_changed_event(FilesChanged {
            paths: paths.clone(),
        }) {
            EventMsg::FilesChanged { paths: shown, more } => {
                assert_eq!(shown, paths[..FILES_CHANGED_LIMIT]);
                assert_eq!(more, 5);
            }
            other => panic!("{other:?}"),
        }
        match files_changed_event(FilesChanged {
            paths: vec!["a".into()],
        }) {
            EventMsg::FilesChanged { paths, more } => {
                assert_eq!((paths, more), (vec!["a".to_owned()], 0));
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn a_closed_op_channel_reads_as_one_shutdown() {
        let dir = tempfile::tempdir().unwrap();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let mut inbox = Inbox::new(rx);
        assert!(!inbox.reports(&dir.path().join("a.txt")));
        drop(tx);
        assert!(matches!(inbox.next().await, Input::Op(Op::Shutdown)));
        let again = tokio::time::timeout(Duration::from_millis(50), inbox.next()).await;
        assert!(again.is_err(), "nothing after the shutdown");
    }

    #[tokio::test]
    async fn a_session_that_cannot_watch_says_so_after_it_started() {
        use crate::agent::{Session, SessionConfig};
        use crate::providers::keys::static_key;
        use crate::providers::{AnthropicConfig, AnthropicProvider};
        use std::sync::Arc;

        // The workspace exists when the session is made and is gone when its task starts
        // watching (on this single-threaded runtime the task runs at the first await).
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().join("going");
        std::fs::create_dir(&workspace).unwrap();
        let provider = AnthropicProvider::new(
            AnthropicConfig::new(static_key("k")).with_base_url("http://127.0.0.1:9"),
        )
        .unwrap();
        let mut config = SessionConfig::new(Arc::new(provider), "m", workspace.clone());
        config.data_dir = dir.path().join(".foreman-data");
        let (ops, mut events) = Session::spawn(config).unwrap();
        std::fs::remove_dir(&workspace).unwrap();
        let mut next = async || {
            tokio::time::timeout(Duration::from_secs(10), events.recv())
                .await
                .unwrap()
                .unwrap()
                .msg
        };
        assert!(matches!(next().await, EventMsg::SessionStarted { .. }));
        match next().await {
            EventMsg::Error { message } => {
                assert!(message.contains("cannot watch"), "{message}");
                assert!(message.contains("re-checked every 250 ms"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        drop(ops);
        assert!(matches!(next().await, EventMsg::ShutdownComplete));
    }

    #[tokio::test]
    async fn a_workspace_that_cannot_be_watched_is_an_error_not_a_panic() {
        let (_tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let mut inbox = Inbox::new(rx);
        inbox.begin_watching(
            Path::new("/no/such/workspace"),
            Duration::from_millis(10),
            |_| panic!("no journal for a workspace that cannot be watched"),
        );
        assert!(!inbox.reports(Path::new("/no/such/workspace/a.txt")));
        match inbox.next().await {
            Input::WatchFailed(error) => {
                assert!(error.to_string().contains("/no/such/workspace"), "{error}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn the_watcher_is_taken_in_once_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let mut inbox = Inbox::new(rx);
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        inbox.begin_watching(dir.path(), Duration::from_millis(10), move |journal| {
            let _ = ready_tx.send(journal);
        });
        let journal = ready_rx.await.unwrap();
        assert!(journal.broken().is_none());
        std::fs::write(dir.path().join("a.txt"), "x").unwrap();
        match tokio::time::timeout(Duration::from_secs(10), inbox.next()).await {
            Ok(Input::Files(batch)) => assert_eq!(batch.paths, vec!["a.txt".to_owned()]),
            other => panic!("{other:?}"),
        }
        assert!(inbox.reports(&dir.path().join("b.txt")));
        drop(tx);
    }
}
