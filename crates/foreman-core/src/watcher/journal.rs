//! The watcher's journal: every path of the workspace the file system said changed since the last
//! checkpoint drained it, raw (before the watcher's filters: a checkpoint records ignored-by-
//! default folders such as `target/` when `.gitignore` does not ignore them), so a checkpoint can
//! look at those paths instead of the whole tree.
//!
//! A journal is only as good as its notifications, so it says when it cannot be trusted:
//! - the kernel's queue overflowed (inotify's `IN_Q_OVERFLOW`, notify's `Rescan` flag), or more
//!   than [`MAX_PATHS`] paths changed: the next drain asks for a full scan, then it is trusted
//!   again;
//! - the watcher hit a limit (`fs.inotify.max_user_watches`) or stopped, or the workspace is on a
//!   file system whose notifications are not complete (NFS, SMB, 9p, FUSE): every drain asks for
//!   a full scan from then on;
//! - the platform's notifications are not ordered with our own writes (only inotify is), so no
//!   [`ChangeJournal::sync`] can prove a drain holds every change made before it.
//!
//! [`ChangeJournal::sync`] is the barrier: it writes a file in a private folder watched by the
//! same inotify instance and waits for its event. inotify keeps one queue per instance, in order,
//! so once that event arrives every change made before the write has been recorded.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Past this many changed paths between two checkpoints, a full scan is cheaper than the list.
pub const MAX_PATHS: usize = 50_000;

/// The sync folders' names in the temporary folder: the prefix, the process id, a random part.
const SYNC_PREFIX: &str = "foreman-watch-sync-";

/// How long [`ChangeJournal::sync`] waits for its own event.
pub const SYNC_TIMEOUT: Duration = Duration::from_secs(2);

/// What a checkpoint gets from the journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drained {
    /// Every path changed since the last drain (workspace-relative, `/`-separated bytes).
    Paths(BTreeSet<Vec<u8>>),
    /// The paths are not known; the reason, for the log.
    FullScan(String),
}

#[derive(Debug, Default)]
struct State {
    paths: BTreeSet<Vec<u8>>,
    /// Why the next drain must be a full scan (cleared by it).
    once: Option<String>,
    /// Why every drain must be a full scan (never cleared).
    broken: Option<String>,
    /// The newest sync token seen, and the next to hand out.
    seen: u64,
    next: u64,
}

/// The changed paths of one workspace, fed by its watcher.
#[derive(Debug)]
pub struct ChangeJournal {
    root: PathBuf,
    sync_dir: tempfile::TempDir,
    state: Mutex<State>,
    synced: Condvar,
}

impl ChangeJournal {
    /// A journal of `root` (canonical), with its private sync folder made now.
    pub fn new(root: &Path) -> std::io::Result<Self> {
        sweep_stale_sync_dirs();
        let sync_dir = tempfile::Builder::new()
            .prefix(&format!("{SYNC_PREFIX}{}-", std::process::id()))
            .tempdir()?;
        let broken = untrusted_file_system(root)
            .map(|fs| {
                format!("the workspace is on {fs}, whose change notifications are not complete")
            })
            .or_else(|| {
                (!cfg!(target_os = "linux")).then(|| {
                    "this platform's change notifications cannot be ordered with a checkpoint"
                        .to_owned()
                })
            });
        Ok(Self {
            root: root.to_path_buf(),
            sync_dir,
            state: Mutex::new(State {
                broken,
                ..State::default()
            }),
            synced: Condvar::new(),
        })
    }

    /// The private folder the watcher must also watch (not recursively).
    pub fn sync_dir(&self) -> &Path {
        self.sync_dir.path()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Notes that `path` (absolute) changed. Called on the watcher's thread for every event.
    pub fn record(&self, path: &Path) {
        if let Ok(name) = path.strip_prefix(self.sync_dir.path()) {
            let token = name.to_str().and_then(|n| n.parse::<u64>().ok());
            if let Some(token) = token {
                let mut state = self.lock();
                state.seen = state.seen.max(token);
                drop(state);
                self.synced.notify_all();
            }
            return;
        }
        let Ok(relative) = path.strip_prefix(&self.root) else {
            return;
        };
        let relative = crate::os_path::git_path(relative);
        if !may_matter(&relative) {
            return;
        }
        let mut state = self.lock();
        if state.once.is_some() || state.broken.is_some() {
            return;
        }
        state.paths.insert(relative);
        if state.paths.len() > MAX_PATHS {
            state.paths = BTreeSet::new();
            state.once = Some(format!("more than {MAX_PATHS} paths changed"));
        }
    }

    /// The kernel dropped events: the next checkpoint scans everything.
    pub fn overflowed(&self, why: &str) {
        let mut state = self.lock();
        state.paths = BTreeSet::new();
        state.once.get_or_insert_with(|| why.to_owned());
    }

    /// The watcher can no longer see every change: every checkpoint scans everything.
    pub fn broke(&self, why: &str) {
        let mut state = self.lock();
        state.paths = BTreeSet::new();
        state.broken.get_or_insert_with(|| why.to_owned());
        drop(state);
        self.synced.notify_all();
    }

    /// Why the journal cannot be trusted at all, if it cannot.
    pub fn broken(&self) -> Option<String> {
        self.lock().broken.clone()
    }

    /// Waits until every change made before this call is recorded; false when that cannot be
    /// known (the journal is broken, or its own event did not come within [`SYNC_TIMEOUT`]).
    pub fn sync(&self) -> bool {
        let token = {
            let mut state = self.lock();
            if state.broken.is_some() {
                return false;
            }
            state.next += 1;
            state.next
        };
        let marker = self.sync_dir.path().join(token.to_string());
        if std::fs::write(&marker, b"").is_err() {
            return false;
        }
        let deadline = Instant::now() + SYNC_TIMEOUT;
        let mut state = self.lock();
        let reached = loop {
            if state.seen >= token {
                break true;
            }
            if state.broken.is_some() {
                break false;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break false;
            }
            state = match self.synced.wait_timeout(state, left) {
                Ok((state, _)) => state,
                Err(poisoned) => poisoned.into_inner().0,
            };
        };
        drop(state);
        let _ = std::fs::remove_file(&marker);
        reached
    }

    /// Syncs, then takes what changed since the last drain.
    pub fn drain(&self) -> Drained {
        let synced = self.sync();
        let mut state = self.lock();
        let paths = std::mem::take(&mut state.paths);
        let once = state.once.take();
        if let Some(why) = state.broken.clone() {
            return Drained::FullScan(why);
        }
        if let Some(why) = once {
            return Drained::FullScan(why);
        }
        if !synced {
            return Drained::FullScan(format!(
                "the watcher did not confirm its changes within {} s",
                SYNC_TIMEOUT.as_secs()
            ));
        }
        Drained::Paths(paths)
    }

    /// Holds the journal's lock, so the watcher's thread stops at its next event and the
    /// kernel's queue fills (to test an overflow for real).
    #[cfg(any(test, feature = "testing"))]
    pub fn hold(&self) -> impl Sized + '_ {
        self.lock()
    }
}

/// Whether a change of `path` (workspace-relative, as git records it) can matter to a
/// checkpoint: not inside a `.git` folder, but for its `info/exclude`, and not inside Foreman's
/// own `.foreman/`. The journal drops the rest at once.
fn may_matter(path: &[u8]) -> bool {
    let mut parts = path.split(|&b| b == b'/');
    if parts.next() == Some(b".foreman") && parts.next().is_some() {
        return false;
    }
    let parts: Vec<&[u8]> = path.split(|&b| b == b'/').collect();
    match parts.iter().position(|p| *p == b".git") {
        Some(git) => {
            let inside = &parts[git + 1..];
            inside.is_empty() || inside == [&b"info"[..], &b"exclude"[..]]
        }
        None => true,
    }
}

/// Removes the sync folders of processes that ended without removing theirs (an app quits
/// without running every destructor).
fn sweep_stale_sync_dirs() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(SYNC_PREFIX)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The kind of file system at `path` when its change notifications are known to be incomplete.
#[cfg(target_os = "linux")]
fn untrusted_file_system(path: &Path) -> Option<&'static str> {
    const NFS: i64 = 0x6969;
    const SMB: i64 = 0x517B;
    const CIFS: i64 = 0xFF53_4D42;
    const SMB2: i64 = 0xFE53_4D42;
    const NINE_P: i64 = 0x0102_1997;
    const FUSE: i64 = 0x6573_5546;
    const CEPH: i64 = 0x00C3_6400;
    let stat = rustix::fs::statfs(path).ok()?;
    #[allow(clippy::unnecessary_cast)]
    match stat.f_type as i64 {
        NFS => Some("NFS"),
        SMB | CIFS | SMB2 => Some("an SMB share"),
        NINE_P => Some("a 9p share"),
        FUSE => Some("a FUSE file system"),
        CEPH => Some("Ceph"),
        _ => None,
    }
}

#[cfg(not(target_os = "linux"))]
fn untrusted_file_system(_path: &Path) -> Option<&'static str> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_internals_and_foremans_own_files_do_not_matter() {
        for path in [
            ".git/objects/ab/cd",
            "sub/.git/index",
            ".foreman/sessions/x",
        ] {
            assert!(!may_matter(path.as_bytes()), "{path}");
        }
        for path in [
            ".git",
            ".git/info/exclude",
            "src/a.rs",
            ".foreman",
            "a/.foreman/x",
        ] {
            assert!(may_matter(path.as_bytes()), "{path}");
        }
    }
}
