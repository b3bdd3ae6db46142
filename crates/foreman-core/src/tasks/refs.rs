//! The other tasks' branches, kept from a task's confined commands.
//!
//! A task's sandbox writes `refs/heads/foreman/` (and its reflogs) so that `git commit` moves
//! its own branch: git writes `<ref>.lock` beside the ref and renames it over the ref, which
//! Landlock cannot allow for one file of a folder. So when each command starts,
//! [`OtherBranches::keep_from`] lists every other branch under `foreman/` (tasks are made while
//! others run) and binds its loose ref file and its reflog read-only in the command's mount
//! namespace: git's rename onto it and an `rm` of it fail (`EBUSY`), a write into it fails
//! (`EROFS`). A branch only in `packed-refs` (after `git gc`) is first given a loose file of
//! the same value, under git's own lock, so that a new loose file cannot shadow it; the
//! command cannot change `packed-refs`, which is outside what it writes. When that cannot be
//! done (git holds the lock), the command gets no branch to write at all: its own commits fail
//! rather than another branch move. Not covered: a branch made after the command started, and
//! a `<ref>.lock` file it leaves beside another branch (git then refuses to move that branch
//! until the file is removed).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::error::TaskError;
use crate::sandbox::SandboxPolicy;

/// How long a branch's lock is waited for before the command gets no branch to write.
const LOCK_WAIT: Duration = Duration::from_millis(500);

/// A task's branch among the others of its repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherBranches {
    /// The repository's shared git directory.
    common_dir: PathBuf,
    /// The task's own branch, `foreman/<name>`.
    own: String,
}

impl OtherBranches {
    pub fn new(common_dir: &Path, own: &str) -> Self {
        Self {
            common_dir: common_dir.to_path_buf(),
            own: own.to_owned(),
        }
    }

    /// Keeps the other branches from the command `policy` confines, as they are now.
    pub fn keep_from(&self, policy: &mut SandboxPolicy) {
        match self.read_only() {
            Ok(paths) => policy.read_only.extend(paths),
            Err(error) => {
                tracing::warn!(%error, "the other tasks' branches cannot be kept from a command; it writes no branch");
                let (refs, logs) = (self.common_dir.join("refs"), self.common_dir.join("logs"));
                policy
                    .extra_writable
                    .retain(|p| !p.starts_with(&refs) && !p.starts_with(&logs));
            }
        }
    }

    /// The loose ref file and the reflog of every branch under `foreman/` but the task's own,
    /// each made first when it is not there.
    fn read_only(&self) -> Result<Vec<PathBuf>, TaskError> {
        let heads = self.common_dir.join("refs/heads");
        let logs = self.common_dir.join("logs/refs/heads");
        let packed = self.packed()?;
        let mut branches: Vec<String> = packed.iter().map(|(name, _)| name.clone()).collect();
        loose(&heads.join("foreman"), "foreman", &mut branches);
        branches.sort();
        branches.dedup();
        let mut paths = Vec::new();
        for branch in branches.iter().filter(|b| **b != self.own) {
            let file = heads.join(branch);
            if !is_file(&file) {
                self.make_loose(&file, branch)?;
            }
            let log = logs.join(branch);
            if let Some(dir) = log.parent() {
                std::fs::create_dir_all(dir).map_err(TaskError::io("create", dir))?;
            }
            // Appending nothing: a reflog git writes meanwhile is kept as it is.
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log)
                .map_err(TaskError::io("create", &log))?;
            paths.push(file);
            paths.push(log);
        }
        Ok(paths)
    }

    /// The `foreman/` branches `packed-refs` lists, with their commits.
    fn packed(&self) -> Result<Vec<(String, String)>, TaskError> {
        let path = self.common_dir.join("packed-refs");
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(TaskError::io("read", &path)(e)),
        };
        Ok(text
            .lines()
            .filter(|l| !l.starts_with(['#', '^']))
            .filter_map(|l| l.split_once(' '))
            .filter_map(|(commit, name)| {
                let branch = name.trim().strip_prefix("refs/heads/")?;
                branch
                    .starts_with("foreman/")
                    .then(|| (branch.to_owned(), commit.to_owned()))
            })
            .collect())
    }

    /// Writes `branch`'s packed value to its loose file `file`, under git's lock (`.lock`
    /// beside it, made exclusively, renamed over it), unless it was written or deleted
    /// meanwhile.
    fn make_loose(&self, file: &Path, branch: &str) -> Result<(), TaskError> {
        let mut lock = file.as_os_str().to_owned();
        lock.push(".lock");
        let lock = PathBuf::from(lock);
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(TaskError::io("create", dir))?;
        }
        let started = std::time::Instant::now();
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&lock)
            {
                Ok(mut held) => {
                    let written = self.write_locked(&mut held, &lock, file, branch);
                    if lock.exists() {
                        let _ = std::fs::remove_file(&lock);
                    }
                    return written;
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if is_file(file) {
                        return Ok(()); // whoever held it wrote it
                    }
                    if started.elapsed() > LOCK_WAIT {
                        return Err(TaskError::Git {
                            command: format!("keep the branch {branch} from the task's commands"),
                            message: format!("{} is held", lock.display()),
                        });
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(TaskError::io("create", &lock)(e)),
            }
        }
    }

    fn write_locked(
        &self,
        held: &mut std::fs::File,
        lock: &Path,
        file: &Path,
        branch: &str,
    ) -> Result<(), TaskError> {
        if is_file(file) {
            return Ok(());
        }
        let Some((_, commit)) = self.packed()?.into_iter().find(|(b, _)| b == branch) else {
            return Ok(()); // deleted meanwhile
        };
        held.write_all(format!("{commit}\n").as_bytes())
            .and_then(|()| held.sync_all())
            .map_err(TaskError::io("write", lock))?;
        std::fs::rename(lock, file).map_err(TaskError::io("write", file))
    }
}

/// Adds the branches whose loose ref files are under `dir` (named `prefix/…`) to `found`:
/// regular files only, and no lock files.
fn loose(dir: &Path, prefix: &str, found: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let branch = format!("{prefix}/{name}");
        if kind.is_dir() {
            loose(&entry.path(), &branch, found);
        } else if kind.is_file() && !name.ends_with(".lock") {
            found.push(branch);
        }
    }
}

/// A regular file, not a link to one.
fn is_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SandboxLevel;
    use crate::tasks::git;
    use crate::tasks::testing::git_repo;

    #[test]
    fn every_other_branch_gets_a_loose_file_and_a_reflog_to_keep_read_only() {
        let dir = git_repo();
        let root = dir.path();
        for branch in ["foreman/one", "foreman/two", "foreman/packed", "other"] {
            git::run(root, ["branch", branch]).unwrap();
        }
        git::run(root, ["pack-refs", "--all"]).unwrap();
        let common = root.join(".git");
        let head = git::run(root, ["rev-parse", "HEAD"]).unwrap();
        assert!(!common.join("refs/heads/foreman/packed").exists());
        let mut policy = SandboxPolicy::new(
            SandboxLevel::WorkspaceWrite,
            false,
            root.to_path_buf(),
            root.join("tmp"),
        );
        OtherBranches::new(&common, "foreman/one").keep_from(&mut policy);
        let mut kept: Vec<String> = policy
            .read_only
            .iter()
            .map(|p| p.strip_prefix(&common).unwrap().display().to_string())
            .collect();
        kept.sort();
        assert_eq!(
            kept,
            [
                "logs/refs/heads/foreman/packed",
                "logs/refs/heads/foreman/two",
                "refs/heads/foreman/packed",
                "refs/heads/foreman/two",
            ]
        );
        // The packed one now has a loose file of the same value, and git agrees.
        assert_eq!(
            std::fs::read_to_string(common.join("refs/heads/foreman/packed")).unwrap(),
            format!("{head}\n")
        );
        assert_eq!(
            git::run(root, ["rev-parse", "foreman/packed"]).unwrap(),
            head
        );
        assert!(!common.join("refs/heads/foreman/packed.lock").exists());
    }

    #[test]
    fn a_branch_that_cannot_be_made_loose_leaves_the_command_no_branch_to_write() {
        let dir = git_repo();
        let root = dir.path();
        git::run(root, ["branch", "foreman/two"]).unwrap();
        git::run(root, ["pack-refs", "--all"]).unwrap();
        let common = root.join(".git");
        std::fs::create_dir_all(common.join("refs/heads/foreman")).unwrap();
        std::fs::write(common.join("refs/heads/foreman/two.lock"), "").unwrap();
        let mut policy = SandboxPolicy::new(
            SandboxLevel::WorkspaceWrite,
            false,
            root.to_path_buf(),
            root.join("tmp"),
        );
        policy.extra_writable = vec![
            common.join("worktrees/one"),
            common.join("refs/heads/foreman"),
            common.join("logs/refs/heads/foreman"),
        ];
        OtherBranches::new(&common, "foreman/one").keep_from(&mut policy);
        assert_eq!(policy.extra_writable, [common.join("worktrees/one")]);
        assert!(!common.join("refs/heads/foreman/two").exists());
    }
}
