//! Facts about the folder a task starts from: whether it is a git repository with a commit,
//! where its shared git directory is, which branch its checkout is on, whether the checkout is
//! clean, and its branches.

use std::path::{Path, PathBuf};

use super::error::TaskError;
use super::git;

/// A git repository's checkout, as a task sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// The checkout's top folder.
    pub root: PathBuf,
    /// The git directory its worktrees share (`.git` of the main checkout).
    pub common_dir: PathBuf,
}

impl Repo {
    /// The repository at `folder`; `None` when it is not one or has no commit yet.
    pub fn at(folder: &Path) -> Result<Option<Self>, TaskError> {
        let out = git::output(
            folder,
            &[
                "rev-parse",
                "--show-toplevel",
                "--git-common-dir",
                "--verify",
                "-q",
                "HEAD",
            ],
        )?;
        if !out.status.success() {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        let (Some(root), Some(common)) = (lines.next(), lines.next()) else {
            return Ok(None);
        };
        let root = PathBuf::from(root);
        let common_dir = git::path_from(folder, common);
        let common_dir = std::fs::canonicalize(&common_dir).unwrap_or(common_dir);
        Ok(Some(Self { root, common_dir }))
    }

    /// The branch the checkout is on (`None`: a detached HEAD).
    pub fn current_branch(&self) -> Result<Option<String>, TaskError> {
        let out = git::output(&self.root, &["symbolic-ref", "-q", "--short", "HEAD"])?;
        let name = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        Ok((out.status.success() && !name.is_empty()).then_some(name))
    }

    /// The commit `rev` names.
    pub fn commit_of(&self, rev: &str) -> Result<String, TaskError> {
        git::run(
            &self.root,
            ["rev-parse", "--verify", "-q", &format!("{rev}^{{commit}}")],
        )
        .map_err(|_| TaskError::NoSuchBase(rev.to_owned()))
    }

    /// Whether `name` is a local branch.
    pub fn has_branch(&self, name: &str) -> Result<bool, TaskError> {
        git::succeeds(
            &self.root,
            &["show-ref", "--verify", "-q", &format!("refs/heads/{name}")],
        )
    }

    /// The local branches, the tasks' own left out.
    pub fn branches(&self) -> Result<Vec<String>, TaskError> {
        let text = git::run(
            &self.root,
            ["for-each-ref", "--format=%(refname:short)", "refs/heads"],
        )?;
        Ok(text
            .lines()
            .filter(|b| !b.starts_with("foreman/"))
            .map(str::to_owned)
            .collect())
    }

    /// The checkout's uncommitted changes, as `git status` names them (empty: clean). Ignored
    /// files do not count.
    pub fn uncommitted(&self) -> Result<Vec<String>, TaskError> {
        changed_paths(&self.root)
    }

    /// Whether the repository has submodules.
    pub fn has_submodules(&self) -> bool {
        self.root.join(".gitmodules").is_file()
    }
}

/// What `git status` is asked for changed paths.
pub(crate) const STATUS: [&str; 4] = ["status", "--porcelain=v1", "-z", "--untracked-files=all"];

/// The changed and untracked paths of the checkout at `dir` (ignored files left out).
pub(crate) fn changed_paths(dir: &Path) -> Result<Vec<String>, TaskError> {
    Ok(status_paths(&git::run(dir, STATUS)?))
}

/// The paths of `git status --porcelain=v1 -z` output.
pub(crate) fn status_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut fields = text.split('\0');
    while let Some(entry) = fields.next() {
        if entry.len() < 4 {
            continue;
        }
        let (code, path) = entry.split_at(3);
        paths.push(path.to_owned());
        // A rename names its source next.
        if code.starts_with('R') || code.starts_with('C') {
            fields.next();
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::testing::{commit_all, git_repo};

    #[test]
    fn a_folder_without_a_commit_is_not_a_repository() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Repo::at(dir.path()).unwrap(), None);
        git::run(dir.path(), ["init", "-q"]).unwrap();
        assert_eq!(Repo::at(dir.path()).unwrap(), None);
    }

    #[test]
    fn a_repository_knows_its_branch_and_its_changes() {
        let dir = git_repo();
        let repo = Repo::at(dir.path()).unwrap().unwrap();
        assert_eq!(repo.current_branch().unwrap().as_deref(), Some("main"));
        assert!(repo.uncommitted().unwrap().is_empty());
        std::fs::write(dir.path().join("new file.txt"), "x").unwrap();
        std::fs::write(dir.path().join("README.md"), "changed").unwrap();
        let mut changed = repo.uncommitted().unwrap();
        changed.sort();
        assert_eq!(changed, vec!["README.md", "new file.txt"]);
        commit_all(dir.path(), "more");
        git::run(dir.path(), ["checkout", "-q", "--detach"]).unwrap();
        assert_eq!(repo.current_branch().unwrap(), None);
        assert_eq!(repo.branches().unwrap(), vec!["main"]);
    }
}
