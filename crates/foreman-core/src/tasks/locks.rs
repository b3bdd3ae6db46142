//! Locks that hold across the app and every `foreman-cli` of the same user: the folder a task
//! runs in (one task at a time works in a folder itself), a task that runs (so a list knows it
//! is running), the slots of the tasks-at-once limit, and a repository's merge queue.
//!
//! Each is an OS file lock (`flock`) on a small file under `<data>/locks/`, so a process that
//! dies releases its locks with it; the file holds the holder's name for messages.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::error::TaskError;

/// A held lock; dropping it releases the lock.
#[derive(Debug)]
pub struct Held {
    _file: File,
    pub path: PathBuf,
}

fn key(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn lock_path(data_dir: &Path, kind: &str, of: &str) -> PathBuf {
    data_dir
        .join("locks")
        .join(format!("{kind}-{}.lock", key(of)))
}

fn open(path: &Path) -> Result<File, TaskError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(TaskError::io("create", parent))?;
    }
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(TaskError::io("open", path))
}

/// Takes the lock at `path` now, writing `holder` into it; `Err(holder)` with the current
/// holder's name when another has it.
fn try_take(path: &Path, holder: &str) -> Result<Result<Held, String>, TaskError> {
    let mut file = open(path)?;
    match file.try_lock() {
        Ok(()) => {
            let _ = file.set_len(0);
            let _ = file.rewind();
            let _ = file.write_all(holder.as_bytes());
            Ok(Ok(Held {
                _file: file,
                path: path.to_path_buf(),
            }))
        }
        Err(TryLockError::WouldBlock) => {
            let mut name = String::new();
            let _ = file.read_to_string(&mut name);
            Ok(Err(name))
        }
        Err(TryLockError::Error(e)) => Err(TaskError::io("lock", path)(e)),
    }
}

/// A task that works in a folder itself: one such task at a time does, and each takes the
/// folder for as long as its agent works (the engine takes it at each task's start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderTurn {
    pub data_dir: PathBuf,
    /// The folder, as the store names it.
    pub folder: String,
    /// The task's name, which another one waiting is told.
    pub task: String,
}

impl FolderTurn {
    /// The folder now, or the name of the task that works in it.
    pub fn try_take(&self) -> Result<Result<Held, String>, TaskError> {
        take_folder(&self.data_dir, &self.folder, &self.task)
    }

    /// What a task waiting for the folder is told.
    pub fn waiting_for(holder: &str) -> String {
        format!(
            "Waiting: the task {holder} is working in this folder, and two tasks in one folder \
             would change the same files. This one starts by itself when it is done; start it \
             in a worktree to run it now."
        )
    }
}

/// The lock of the folder `folder` for a task working in it; `Err(holder)` when another task
/// works there.
pub fn take_folder(
    data_dir: &Path,
    folder: &str,
    task: &str,
) -> Result<Result<Held, String>, TaskError> {
    try_take(&lock_path(data_dir, "folder", folder), task)
}

/// Marks the task `id` as running for as long as the lock is held.
pub fn take_running(data_dir: &Path, id: &str) -> Result<Option<Held>, TaskError> {
    let path = lock_path(data_dir, "task", id);
    // Another process's look (`is_running`) holds it for a moment only; a session of the task
    // running elsewhere holds it for good.
    for _ in 0..10 {
        if let Ok(held) = try_take(&path, id)? {
            return Ok(Some(held));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(None)
}

/// Whether some process runs the task `id` now.
pub fn is_running(data_dir: &Path, id: &str) -> bool {
    let path = lock_path(data_dir, "task", id);
    // A look that writes nothing and takes only a shared lock for a moment (which
    // `take_running` waits out).
    let Ok(file) = std::fs::File::open(&path) else {
        return false;
    };
    matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock))
}

/// A slot of the tasks-at-once limit, when one of the `limit` is free.
pub fn take_slot(data_dir: &Path, limit: u32, task: &str) -> Result<Option<Held>, TaskError> {
    for n in 0..limit.max(1) {
        let path = data_dir.join("locks").join(format!("slot-{n}.lock"));
        if let Ok(held) = try_take(&path, task)? {
            return Ok(Some(held));
        }
    }
    Ok(None)
}

/// Waits for a slot of the limit, polling; `on_wait` is called once when it has to wait.
pub async fn wait_for_slot(
    data_dir: &Path,
    limit: u32,
    task: &str,
    mut on_wait: impl FnMut(),
) -> Result<Held, TaskError> {
    let mut told = false;
    loop {
        if let Some(held) = take_slot(data_dir, limit, task)? {
            return Ok(held);
        }
        if !told {
            on_wait();
            told = true;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// The merge queue of the repository `repo_key` (its git directory), when it is free;
/// `locks_dir` is `<data>/locks`.
pub fn try_merge(locks_dir: &Path, repo_key: &str, task: &str) -> Result<Option<Held>, TaskError> {
    let path = locks_dir.join(format!("merge-{}.lock", key(repo_key)));
    Ok(try_take(&path, task)?.ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `check` holds within a second: a lock dropped here can stay held a moment by a
    /// process another test thread is starting (its copy of the descriptor closes at its exec).
    fn soon(mut check: impl FnMut() -> bool) -> bool {
        (0..100).any(|_| {
            check() || {
                std::thread::sleep(Duration::from_millis(10));
                false
            }
        })
    }

    #[test]
    fn a_folder_holds_one_task_and_names_it() {
        let data = tempfile::tempdir().unwrap();
        let first = take_folder(data.path(), "/repo", "fix-login")
            .unwrap()
            .unwrap();
        assert_eq!(
            take_folder(data.path(), "/repo", "other")
                .unwrap()
                .unwrap_err(),
            "fix-login"
        );
        assert!(
            take_folder(data.path(), "/elsewhere", "other")
                .unwrap()
                .is_ok()
        );
        drop(first);
        assert!(soon(|| take_folder(data.path(), "/repo", "other")
            .unwrap()
            .is_ok()));
    }

    #[test]
    fn slots_hold_the_limit_and_running_is_seen() {
        let data = tempfile::tempdir().unwrap();
        let a = take_slot(data.path(), 2, "a").unwrap().unwrap();
        let _b = take_slot(data.path(), 2, "b").unwrap().unwrap();
        assert!(take_slot(data.path(), 2, "c").unwrap().is_none());
        drop(a);
        assert!(soon(|| take_slot(data.path(), 2, "c").unwrap().is_some()));
        assert!(!is_running(data.path(), "t"));
        let running = take_running(data.path(), "t").unwrap().unwrap();
        assert!(is_running(data.path(), "t"));
        // Looking does not get in the way of the holder, nor of the next taker.
        assert!(is_running(data.path(), "t"));
        drop(running);
        assert!(soon(|| !is_running(data.path(), "t")));
        assert!(take_running(data.path(), "t").unwrap().is_some());
    }
}
