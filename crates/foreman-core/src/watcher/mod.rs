//! Watching the workspace for changes made outside the agent (an editor, git, a build).
//!
//! Raw file-system notifications are filtered (`.git/` internals, paths ignored by the
//! workspace's `.gitignore` / `.ignore` files at any depth and by `.git/info/exclude`, and the
//! default excludes) and debounced into one [`FilesChanged`] batch per quiet period (at most
//! [`WorkspaceWatcher::start`]'s `debounce` times [`MAX_DELAY_FACTOR`] after the first change of
//! a batch, so a steady stream of writes still gets reported). Only relevant paths restart the
//! quiet period: a build churning in `target/` does not hold back a change in `src/`. A changed
//! ignore file is read again before the next path is checked. The session uses the batches to
//! recompute diff previews that wait for approval and emits them as `EventMsg::FilesChanged`.
//!
//! Every raw change also goes, unfiltered and at once, to the [`ChangeJournal`] that checkpoints
//! read instead of scanning the whole tree. When the watcher hits a limit (inotify's watches or
//! its queue) it says which in a [`WatchReport::Trouble`], stops claiming to report changes (so
//! approvals poll their files), and the journal asks checkpoints for full scans: no change goes
//! unnoticed.

mod filter;
pub mod journal;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use thiserror::Error;
use tokio::sync::mpsc;
use tokio::time::Instant;

pub use filter::ChangeFilter;
pub use journal::ChangeJournal;

/// A batch is reported at most this many debounce periods after its first change.
pub const MAX_DELAY_FACTOR: u32 = 10;

/// A debounced batch of changed paths, relative to the workspace root (with `/`), sorted and
/// deduplicated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilesChanged {
    pub paths: Vec<String>,
}

/// What the watcher sends the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchReport {
    Files(FilesChanged),
    /// It can no longer see every change; what happened and what is done instead.
    Trouble(String),
}

/// What the notify thread hands the debounce loop.
enum Raw {
    Path(PathBuf),
    Trouble(String),
}

#[derive(Debug, Error)]
pub enum WatchError {
    #[error("cannot watch {path}: {reason}")]
    Start { path: PathBuf, reason: String },
}

/// The filter shared by the watcher task and [`WorkspaceWatcher::reports`].
#[derive(Clone)]
struct SharedFilter(Arc<Mutex<ChangeFilter>>);

impl SharedFilter {
    fn lock(&self) -> MutexGuard<'_, ChangeFilter> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A running watcher; dropping it stops watching.
pub struct WorkspaceWatcher {
    _watcher: RecommendedWatcher,
    task: tokio::task::JoinHandle<()>,
    root: PathBuf,
    filter: SharedFilter,
    journal: Arc<ChangeJournal>,
    /// Set when a limit was hit: changes may go unreported from then on.
    degraded: Arc<AtomicBool>,
}

impl std::fmt::Debug for WorkspaceWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkspaceWatcher")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

impl WorkspaceWatcher {
    /// Starts watching `root` recursively; batches arrive on the returned receiver after
    /// `debounce` without further relevant changes. Needs a Tokio runtime.
    pub fn start(
        root: &Path,
        debounce: Duration,
    ) -> Result<(Self, mpsc::UnboundedReceiver<WatchReport>), WatchError> {
        let root = root.canonicalize().map_err(|e| WatchError::Start {
            path: root.to_path_buf(),
            reason: e.to_string(),
        })?;
        let failed = |reason: String| WatchError::Start {
            path: root.clone(),
            reason,
        };
        let journal = Arc::new(ChangeJournal::new(&root).map_err(|e| failed(e.to_string()))?);
        let filter = SharedFilter(Arc::new(Mutex::new(ChangeFilter::new(&root))));
        let degraded = Arc::new(AtomicBool::new(false));
        let (raw_tx, raw_rx) = mpsc::unbounded_channel::<Raw>();
        let handler = {
            let (journal, degraded) = (journal.clone(), degraded.clone());
            move |event: notify::Result<notify::Event>| match event {
                Ok(event) => {
                    if event.need_rescan() {
                        journal.overflowed("the watcher's event queue overflowed");
                    }
                    if matches!(event.kind, notify::EventKind::Access(_)) {
                        return;
                    }
                    for path in event.paths {
                        journal.record(&path);
                        let _ = raw_tx.send(Raw::Path(path));
                    }
                }
                Err(error) => {
                    let trouble = trouble_text(&error);
                    journal.broke(&trouble);
                    degraded.store(true, Ordering::Relaxed);
                    let _ = raw_tx.send(Raw::Trouble(trouble));
                }
            }
        };
        // Links are recorded as links, never followed: a link to `$HOME` must not make the
        // watcher walk and watch all of it.
        let config = notify::Config::default().with_follow_symlinks(false);
        let mut watcher =
            RecommendedWatcher::new(handler, config).map_err(|e| failed(trouble_text(&e)))?;
        watcher
            .watch(&root, RecursiveMode::Recursive)
            .map_err(|e| failed(trouble_text(&e)))?;
        if let Err(error) = watcher.watch(journal.sync_dir(), RecursiveMode::NonRecursive) {
            journal.broke(&format!("its private folder cannot be watched ({error})"));
        }

        let (tx, rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(debounce_loop(filter.clone(), raw_rx, tx, debounce));
        Ok((
            Self {
                _watcher: watcher,
                task,
                root,
                filter,
                journal,
                degraded,
            },
            rx,
        ))
    }

    /// The journal of every change, for checkpoints.
    pub fn journal(&self) -> Arc<ChangeJournal> {
        self.journal.clone()
    }

    /// Whether a change of `path` (absolute, or relative to the root) would be reported; false
    /// for ignored and excluded paths, which need another way to notice changes.
    pub fn reports(&self, path: &Path) -> bool {
        if self.degraded.load(Ordering::Relaxed) {
            return false;
        }
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.root.join(path)
        };
        // The filter works on the canonical root; canonicalise what exists of the path.
        let absolute = match (absolute.parent(), absolute.file_name()) {
            (Some(parent), Some(name)) => parent
                .canonicalize()
                .map(|p| p.join(name))
                .unwrap_or(absolute.clone()),
            _ => absolute,
        };
        self.filter.lock().relevant(&absolute).is_some()
    }
}

impl Drop for WorkspaceWatcher {
    fn drop(&mut self) {
        self.journal.broke("the watcher stopped");
        self.task.abort();
    }
}

/// A watcher's error as the person reads it: which limit, and what happens instead.
fn trouble_text(error: &notify::Error) -> String {
    match &error.kind {
        notify::ErrorKind::MaxFilesWatch => {
            let limit = std::fs::read_to_string("/proc/sys/fs/inotify/max_user_watches")
                .map(|n| format!(" (fs.inotify.max_user_watches is {})", n.trim()))
                .unwrap_or_default();
            format!(
                "The workspace has more folders than this system lets Foreman watch{limit}. \
                 Changes in the folders past the limit are not reported as they happen; \
                 checkpoints scan the whole workspace instead, so none is missed"
            )
        }
        _ => format!(
            "The workspace watcher failed ({error}); checkpoints scan the whole workspace \
             instead, so no change is missed"
        ),
    }
}

/// Collects relevant raw paths and sends a batch after a quiet `debounce`, or at the latest
/// `debounce * MAX_DELAY_FACTOR` after the batch's first change.
async fn debounce_loop(
    filter: SharedFilter,
    mut raw_rx: mpsc::UnboundedReceiver<Raw>,
    tx: mpsc::UnboundedSender<WatchReport>,
    debounce: Duration,
) {
    let max_delay = debounce.saturating_mul(MAX_DELAY_FACTOR);
    let mut pending = BTreeSet::new();
    let mut quiet_at: Option<Instant> = None;
    let mut flush_by: Option<Instant> = None;
    let mut troubled = false;
    loop {
        let deadline = match (quiet_at, flush_by) {
            (Some(q), Some(f)) => Some(q.min(f)),
            (q, f) => q.or(f),
        };
        let next = match deadline {
            None => raw_rx.recv().await,
            Some(at) => match tokio::time::timeout_at(at, raw_rx.recv()).await {
                Ok(next) => next,
                Err(_) => {
                    quiet_at = None;
                    flush_by = None;
                    let paths: Vec<String> = std::mem::take(&mut pending).into_iter().collect();
                    if tx.send(WatchReport::Files(FilesChanged { paths })).is_err() {
                        return;
                    }
                    continue;
                }
            },
        };
        let path = match next {
            None => return,
            Some(Raw::Path(path)) => path,
            Some(Raw::Trouble(text)) => {
                // Said once: the same limit is hit again for every new folder.
                if !std::mem::replace(&mut troubled, true)
                    && tx.send(WatchReport::Trouble(text)).is_err()
                {
                    return;
                }
                continue;
            }
        };
        let relevant = {
            let mut filter = filter.lock();
            filter.note_change(&path);
            filter.relevant(&path)
        };
        if let Some(relative) = relevant {
            pending.insert(relative);
            let now = Instant::now();
            quiet_at = Some(now + debounce);
            flush_by.get_or_insert(now + max_delay);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn next_batch(rx: &mut mpsc::UnboundedReceiver<WatchReport>) -> FilesChanged {
        loop {
            let report = tokio::time::timeout(Duration::from_secs(10), rx.recv())
                .await
                .unwrap()
                .unwrap();
            if let WatchReport::Files(batch) = report {
                return batch;
            }
        }
    }

    /// Batches until one contains `path`.
    async fn until_reported(
        rx: &mut mpsc::UnboundedReceiver<WatchReport>,
        path: &str,
    ) -> Vec<FilesChanged> {
        let mut batches = Vec::new();
        loop {
            let batch = next_batch(rx).await;
            let found = batch.paths.iter().any(|p| p == path);
            batches.push(batch);
            if found {
                return batches;
            }
        }
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

        std::fs::write(root.join("build/out.o"), "x").unwrap();
        std::fs::write(root.join("debug.log"), "x").unwrap();
        std::fs::write(root.join(".git/index"), "x").unwrap();
        std::fs::write(root.join("src/main.rs"), "fn main() {}").unwrap();
        std::fs::write(root.join("src/main.rs"), "fn main() { }").unwrap();

        let batches = until_reported(&mut rx, "src/main.rs").await;
        for ignored in ["build/out.o", "debug.log", ".git/index"] {
            assert!(
                !batches.iter().flat_map(|b| &b.paths).any(|p| p == ignored),
                "{ignored} reported: {batches:?}"
            );
        }
        let last = batches.last().unwrap();
        assert_eq!(last.paths.iter().filter(|p| *p == "src/main.rs").count(), 1);
    }

    #[tokio::test]
    async fn a_changed_gitignore_is_reloaded() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let (watcher, mut rx) = WorkspaceWatcher::start(root, Duration::from_millis(50)).unwrap();
        assert!(watcher.reports(Path::new("secret.env")));
        std::fs::write(root.join(".gitignore"), "*.env\n").unwrap();
        until_reported(&mut rx, ".gitignore").await;
        assert!(!watcher.reports(Path::new("secret.env")));
        assert!(!watcher.reports(&root.join("secret.env")));
        assert!(watcher.reports(&root.join("kept.txt")));

        std::fs::write(root.join("secret.env"), "x").unwrap();
        std::fs::write(root.join("kept.txt"), "x").unwrap();
        let batches = until_reported(&mut rx, "kept.txt").await;
        assert!(
            !batches
                .iter()
                .flat_map(|b| &b.paths)
                .any(|p| p == "secret.env"),
            "{batches:?}"
        );
    }

    #[tokio::test]
    async fn nested_ignore_files_are_honoured_and_reloaded() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("web/build")).unwrap();
        std::fs::create_dir_all(root.join("api/gen")).unwrap();
        std::fs::write(root.join("web/.gitignore"), "build/\n").unwrap();
        let (watcher, mut rx) = WorkspaceWatcher::start(root, Duration::from_millis(50)).unwrap();

        std::fs::write(root.join("web/build/app.js"), "x").unwrap();
        std::fs::write(root.join("web/index.ts"), "x").unwrap();
        let batches = until_reported(&mut rx, "web/index.ts").await;
        let reported = |batches: &[FilesChanged], path: &str| {
            batches.iter().flat_map(|b| &b.paths).any(|p| p == path)
        };
        assert!(!reported(&batches, "web/build/app.js"), "{batches:?}");

        // An ignore file written while watching applies from then on.
        assert!(watcher.reports(Path::new("api/gen/types.rs")));
        std::fs::write(root.join("api/.ignore"), "gen/\n").unwrap();
        until_reported(&mut rx, "api/.ignore").await;
        assert!(!watcher.reports(Path::new("api/gen/types.rs")));
        std::fs::write(root.join("api/gen/types.rs"), "x").unwrap();
        std::fs::write(root.join("api/lib.rs"), "x").unwrap();
        let batches = until_reported(&mut rx, "api/lib.rs").await;
        assert!(!reported(&batches, "api/gen/types.rs"), "{batches:?}");
    }

    #[tokio::test]
    async fn churn_in_excluded_paths_does_not_hold_back_a_batch() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join("target")).unwrap();
        let debounce = Duration::from_millis(100);
        let (_watcher, mut rx) = WorkspaceWatcher::start(&root, debounce).unwrap();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let churn = {
            let (root, stop) = (root.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut i = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let _ = std::fs::write(root.join("target/out"), i.to_string());
                    i += 1;
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
        };
        std::fs::write(root.join("lib.rs"), "x").unwrap();
        // Arrives while `target/` keeps changing (next_batch gives up after 10 s).
        let batches = until_reported(&mut rx, "lib.rs").await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        churn.join().unwrap();
        assert!(
            !batches
                .iter()
                .flat_map(|b| &b.paths)
                .any(|p| p.starts_with("target")),
            "{batches:?}"
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
}
