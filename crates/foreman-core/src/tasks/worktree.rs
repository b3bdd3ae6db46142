//! A task's git worktree: made outside the repository on a branch of its own, opened again after
//! a restart, removed only when its work is safe, and measured on disk.
//!
//! A confined command in the worktree writes its git objects to a private store in the
//! worktree's own git directory (`GIT_OBJECT_DIRECTORY`, with the repository's store as an
//! alternate), so the repository's object store stays read-only to it; [`absorb_objects`]
//! copies new objects in before the engine acts on the task's branch. It may write its own git
//! directory (index, HEAD) and its own branch (the folder of the `foreman/` branches, with the
//! other branches in it kept read-only: `refs.rs`); nothing else of the repository's. Since
//! it may write its HEAD, the engine's git acts on the worktree only while HEAD leads to the
//! task's branch itself ([`Worktree::ensure_on`]).

use std::path::{Path, PathBuf};

use super::error::TaskError;
use super::git;
use super::repo::Repo;

/// The folder in a worktree's git directory that holds what confined commands commit.
const PRIVATE_OBJECTS: &str = "foreman-objects";

/// A task's worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worktree {
    pub path: PathBuf,
    /// Its own git directory (`<repo>/.git/worktrees/<name>`).
    pub git_dir: PathBuf,
    /// The repository's shared git directory.
    pub common_dir: PathBuf,
}

impl Worktree {
    /// Makes a worktree at `path` on a new branch `branch` from `base_commit`. Returns it and,
    /// when the repository's submodules could not be set up in it, why.
    pub fn create(
        repo: &Repo,
        path: &Path,
        branch: &str,
        base_commit: &str,
    ) -> Result<(Self, Option<String>), TaskError> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(TaskError::io("create", parent))?;
        }
        let path_arg = path.as_os_str();
        let args = git::worktree_args(&[
            "add".as_ref(),
            "-q".as_ref(),
            "--no-track".as_ref(),
            "-b".as_ref(),
            branch.as_ref(),
            path_arg,
            base_commit.as_ref(),
        ]);
        let out = git::output(&repo.root, &args)?;
        if !out.status.success() {
            return Err(git::failed(&args, &out));
        }
        let worktree = Self::open(path, &repo.common_dir)?.ok_or_else(|| TaskError::Git {
            command: "git worktree add".into(),
            message: format!("{} is not a worktree after it was made", path.display()),
        })?;
        worktree.prepare_private_store()?;
        let mut warning = None;
        if repo.has_submodules() {
            let args = [
                "-c",
                "protocol.file.allow=always",
                "submodule",
                "update",
                "--init",
                "--recursive",
                "-q",
            ];
            let out = git::output(path, &args)?;
            if !out.status.success() {
                warning = Some(format!(
                    "the submodules could not be set up in the worktree ({}); the task sees \
                     them as empty folders",
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
        Ok((worktree, warning))
    }

    /// The worktree at `path` of the repository whose git directory is `common_dir`, when it
    /// is still there and still one of its worktrees. Its git directory is read from its `.git`
    /// file (read-only to confined commands) and must lie in the repository's; nothing a
    /// confined command can write (the `commondir` file) decides where the engine's git looks.
    pub fn open(path: &Path, common_dir: &Path) -> Result<Option<Self>, TaskError> {
        let Ok(text) = std::fs::read_to_string(path.join(".git")) else {
            return Ok(None);
        };
        let Some(pointer) = text.lines().next().and_then(|l| l.strip_prefix("gitdir: ")) else {
            return Ok(None);
        };
        let git_dir = git::path_from(path, pointer.trim());
        let git_dir = std::fs::canonicalize(&git_dir).unwrap_or(git_dir);
        let common_dir = std::fs::canonicalize(common_dir).unwrap_or(common_dir.to_path_buf());
        if !git_dir.starts_with(common_dir.join("worktrees")) || !git_dir.join("HEAD").is_file() {
            return Ok(None);
        }
        Ok(Some(Self {
            path: path.to_path_buf(),
            git_dir,
            common_dir,
        }))
    }

    /// `git` in this worktree, told its git directories outright (see [`Self::open`]).
    pub(crate) fn command(&self) -> std::process::Command {
        let mut cmd = git::command(&self.path);
        cmd.env("GIT_DIR", &self.git_dir)
            .env("GIT_COMMON_DIR", &self.common_dir)
            .env("GIT_WORK_TREE", &self.path);
        cmd
    }

    /// Runs `git args…` here; its output when it succeeds.
    pub(crate) fn run<I, S>(&self, args: I) -> Result<String, TaskError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let args: Vec<S> = args.into_iter().collect();
        git::stdout_of(&args, &self.output(&args)?)
    }

    /// Runs `git args…` here and returns what happened.
    pub(crate) fn output<S: AsRef<std::ffi::OsStr>>(
        &self,
        args: &[S],
    ) -> Result<std::process::Output, TaskError> {
        self.command()
            .args(args)
            .output()
            .map_err(|source| TaskError::GitMissing { source })
    }

    /// Whether `git args…` here exits with 0.
    pub(crate) fn succeeds<S: AsRef<std::ffi::OsStr>>(
        &self,
        args: &[S],
    ) -> Result<bool, TaskError> {
        Ok(self.output(args)?.status.success())
    }

    /// Errs unless HEAD leads to `branch` itself (through no other ref): the task's commands
    /// may write HEAD and the branch's own file, and the engine's git follows them.
    pub(crate) fn ensure_on(&self, branch: &str) -> Result<(), TaskError> {
        let out = self.output(&["rev-parse", "--symbolic-full-name", "HEAD"])?;
        let head = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if out.status.success() && head == format!("refs/heads/{branch}") {
            return Ok(());
        }
        Err(TaskError::OffBranch {
            branch: branch.to_owned(),
            head: match head.as_str() {
                "" | "HEAD" => "a detached HEAD".to_owned(),
                other => other.trim_start_matches("refs/heads/").to_owned(),
            },
        })
    }

    /// Its changed and untracked paths (ignored files left out).
    pub fn changed_paths(&self) -> Result<Vec<String>, TaskError> {
        Ok(super::repo::status_paths(&self.run(super::repo::STATUS)?))
    }

    /// Files in its git directory a confined command must not change: where git finds the
    /// repository (`commondir`, `gitdir`) and its own configuration (`config.worktree`), which
    /// the engine's git would otherwise read outside the sandbox.
    pub fn sandbox_read_only(&self) -> Vec<PathBuf> {
        ["commondir", "gitdir", "config.worktree"]
            .iter()
            .map(|f| self.git_dir.join(f))
            .collect()
    }

    fn private_objects(&self) -> PathBuf {
        self.git_dir.join(PRIVATE_OBJECTS)
    }

    pub(crate) fn prepare_private_store(&self) -> Result<(), TaskError> {
        // An empty configuration of its own, so there is a file to keep read-only.
        let config = self.git_dir.join("config.worktree");
        if !config.exists() {
            std::fs::write(&config, "").map_err(TaskError::io("write", &config))?;
        }
        for dir in [
            self.private_objects().join("pack"),
            self.private_objects().join("info"),
            self.common_dir.join("refs/heads/foreman"),
            self.common_dir.join("logs/refs/heads/foreman"),
        ] {
            std::fs::create_dir_all(&dir).map_err(TaskError::io("create", &dir))?;
        }
        Ok(())
    }

    /// What a confined command in this worktree may write besides it: its git directory and
    /// the folder of the `foreman/` branches (with their logs), of which only its own branch
    /// stays writable ([`super::OtherBranches`]).
    pub fn sandbox_writable(&self) -> Vec<PathBuf> {
        vec![
            self.git_dir.clone(),
            self.common_dir.join("refs/heads/foreman"),
            self.common_dir.join("logs/refs/heads/foreman"),
        ]
    }

    /// The environment of a confined command here: new objects go to the private store.
    pub fn sandbox_env(&self) -> Vec<(String, String)> {
        vec![
            (
                "GIT_OBJECT_DIRECTORY".into(),
                self.private_objects().display().to_string(),
            ),
            (
                "GIT_ALTERNATE_OBJECT_DIRECTORIES".into(),
                self.common_dir.join("objects").display().to_string(),
            ),
        ]
    }

    /// Copies the objects confined commands made into the repository's store (the ones it
    /// already has are left alone), then empties the private store. Returns how many it copied.
    pub fn absorb_objects(&self) -> Result<usize, TaskError> {
        let private = self.private_objects();
        let shared = self.common_dir.join("objects");
        let Ok(entries) = std::fs::read_dir(&private) else {
            return Ok(0);
        };
        let mut copied = 0;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let is_fanout = name.len() == 2 && name.chars().all(|c| c.is_ascii_hexdigit());
            if !is_fanout && name != "pack" {
                continue;
            }
            let Ok(files) = std::fs::read_dir(entry.path()) else {
                continue;
            };
            let mut files: Vec<PathBuf> = files.flatten().map(|f| f.path()).collect();
            // A pack before its index, so the index never names a missing pack.
            files.sort_by_key(|f| f.extension().is_some_and(|e| e == "idx"));
            for file in files {
                let Some(file_name) = file.file_name() else {
                    continue;
                };
                let dest_dir = shared.join(name.as_ref());
                let dest = dest_dir.join(file_name);
                if !dest.exists() {
                    std::fs::create_dir_all(&dest_dir)
                        .map_err(TaskError::io("create", &dest_dir))?;
                    let temp = dest_dir.join(format!(".foreman-{}", file_name.to_string_lossy()));
                    std::fs::copy(&file, &temp).map_err(TaskError::io("copy", &file))?;
                    std::fs::rename(&temp, &dest).map_err(TaskError::io("move", &temp))?;
                    copied += 1;
                }
                let _ = std::fs::remove_file(&file);
            }
        }
        Ok(copied)
    }
}

/// Removes the worktree at `path` (its files and git's entry for it) and, when `branch` is
/// given, the branch. The caller has made sure nothing in it is lost.
pub fn remove(repo: &Repo, path: &Path, branch: Option<&str>) -> Result<(), TaskError> {
    if path.exists() {
        let args = git::worktree_args(&["remove".as_ref(), "--force".as_ref(), path.as_os_str()]);
        let out = git::output(&repo.root, &args)?;
        if !out.status.success() && path.exists() {
            std::fs::remove_dir_all(path).map_err(TaskError::io("remove", path))?;
        }
    }
    prune(repo)?;
    if let Some(branch) = branch
        && repo.has_branch(branch)?
    {
        git::run(&repo.root, ["branch", "-q", "-D", branch])?;
    }
    Ok(())
}

/// Prunes git's entries for worktrees deleted by hand; returns a line per entry pruned.
pub fn prune(repo: &Repo) -> Result<Vec<String>, TaskError> {
    let out = git::output(
        &repo.root,
        &git::worktree_args(&["prune".as_ref(), "--verbose".as_ref()]),
    )?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// The bytes the files under `path` take (symbolic links are not followed).
pub fn disk_usage(path: &Path) -> u64 {
    let mut total = 0u64;
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                total = total.saturating_add(meta.len());
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::testing::git_repo;

    #[test]
    fn a_worktree_is_made_on_its_branch_and_removed_with_it() {
        let dir = git_repo();
        let repo = Repo::at(dir.path()).unwrap().unwrap();
        let base = repo.commit_of("main").unwrap();
        let place = tempfile::tempdir().unwrap();
        let path = place.path().join("wt/fix");
        let (wt, warning) = Worktree::create(&repo, &path, "foreman/fix", &base).unwrap();
        assert_eq!(warning, None);
        assert!(path.join("README.md").is_file());
        assert_eq!(
            git::run(&path, ["branch", "--show-current"]).unwrap(),
            "foreman/fix"
        );
        assert!(wt.git_dir.starts_with(&repo.common_dir));
        assert!(disk_usage(&path) > 0);
        remove(&repo, &path, Some("foreman/fix")).unwrap();
        assert!(!path.exists());
        assert!(!repo.has_branch("foreman/fix").unwrap());
    }

    #[test]
    fn objects_a_confined_commit_made_are_absorbed_into_the_repository() {
        let dir = git_repo();
        let repo = Repo::at(dir.path()).unwrap().unwrap();
        let base = repo.commit_of("main").unwrap();
        let place = tempfile::tempdir().unwrap();
        let path = place.path().join("t");
        let (wt, _) = Worktree::create(&repo, &path, "foreman/t", &base).unwrap();
        std::fs::write(path.join("new.txt"), "private\n").unwrap();
        let commit = |args: &[&str]| {
            let mut cmd = wt.command();
            cmd.args(args);
            for (k, v) in wt.sandbox_env() {
                cmd.env(k, v);
            }
            assert!(cmd.status().unwrap().success(), "{args:?}");
        };
        commit(&["add", "-A"]);
        commit(&[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "x",
        ]);
        // The repository's own store does not have the commit yet...
        assert!(!git::succeeds(&repo.root, &["cat-file", "-e", "foreman/t^{commit}"]).unwrap());
        assert!(wt.absorb_objects().unwrap() >= 3);
        // ...and has it once absorbed.
        assert!(git::succeeds(&repo.root, &["cat-file", "-e", "foreman/t^{commit}"]).unwrap());
        assert_eq!(wt.absorb_objects().unwrap(), 0);
    }

    #[test]
    fn a_worktree_deleted_by_hand_is_not_opened_and_is_pruned() {
        let dir = git_repo();
        let repo = Repo::at(dir.path()).unwrap().unwrap();
        let base = repo.commit_of("main").unwrap();
        let place = tempfile::tempdir().unwrap();
        let path = place.path().join("gone");
        Worktree::create(&repo, &path, "foreman/gone", &base).unwrap();
        std::fs::remove_dir_all(&path).unwrap();
        assert_eq!(Worktree::open(&path, &repo.common_dir).unwrap(), None);
        let pruned = prune(&repo).unwrap();
        assert!(!pruned.is_empty(), "{pruned:?}");
    }
}
