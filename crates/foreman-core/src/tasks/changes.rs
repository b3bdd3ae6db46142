//! What a worktree task changed against its base: the tree of the worktree as it is now
//! (committed or not, untracked files included, ignored ones left out), the commit the change
//! is measured from, the lines added and removed per file, and the lines each file's change
//! touches (for overlaps between tasks).

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use super::error::TaskError;
use super::git;
use super::worktree::Worktree;

/// One file's lines added and removed (binary files count 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStat {
    pub path: String,
    pub added: u32,
    pub removed: u32,
}

/// Numbers the private indexes of one process: several snapshots of a worktree can be taken at
/// once (the app lists its tasks from more than one command), and each needs its own file.
static SNAPSHOTS: AtomicU64 = AtomicU64::new(0);

/// The tree of everything in the worktree now, made in a private copy of its index (the
/// worktree's own index is not touched).
pub fn snapshot_tree(wt: &Worktree) -> Result<String, TaskError> {
    wt.absorb_objects()?;
    let index = wt.git_dir.join(format!(
        "foreman-index-{}-{}",
        std::process::id(),
        SNAPSHOTS.fetch_add(1, Ordering::Relaxed)
    ));
    let real = wt.git_dir.join("index");
    if real.is_file() {
        std::fs::copy(&real, &index).map_err(TaskError::io("copy", &real))?;
    }
    let result = (|| {
        let run = |args: &[&str]| -> Result<String, TaskError> {
            let out = wt
                .command()
                .env("GIT_INDEX_FILE", &index)
                .args(args)
                .output()
                .map_err(|source| TaskError::GitMissing { source })?;
            git::stdout_of(args, &out)
        };
        if !real.is_file() {
            run(&["read-tree", "HEAD"])?;
        }
        run(&["add", "-A"])?;
        run(&["write-tree"])
    })();
    let _ = std::fs::remove_file(&index);
    result
}

/// Where the worktree's branch left `base` (a branch or a commit): their merge base, or
/// `fallback` when there is none.
pub fn diff_base(wt: &Worktree, base: &str, fallback: Option<&str>) -> Result<String, TaskError> {
    let out = wt.output(&["merge-base", "HEAD", base])?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned());
    }
    fallback
        .map(str::to_owned)
        .ok_or_else(|| TaskError::NoSuchBase(base.to_owned()))
}

/// Lines added and removed per file from `from` to `tree`.
pub fn file_stats(wt: &Worktree, from: &str, tree: &str) -> Result<Vec<FileStat>, TaskError> {
    let text = wt.run(["diff", "--numstat", "-z", "--no-renames", from, tree])?;
    let mut stats = Vec::new();
    for entry in text.split('\0').filter(|e| !e.is_empty()) {
        let mut parts = entry.splitn(3, '\t');
        let (Some(added), Some(removed), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        stats.push(FileStat {
            path: path.to_owned(),
            added: added.parse().unwrap_or(0),
            removed: removed.parse().unwrap_or(0),
        });
    }
    Ok(stats)
}

/// For each changed file, the lines of `from`'s version its change touches (an insertion
/// touches the line it follows).
pub fn touched_lines(
    wt: &Worktree,
    from: &str,
    tree: &str,
) -> Result<BTreeMap<String, Vec<Range<u32>>>, TaskError> {
    let text = wt.run([
        "diff",
        "-U0",
        "--no-renames",
        "--no-color",
        "--no-ext-diff",
        from,
        tree,
    ])?;
    let mut touched: BTreeMap<String, Vec<Range<u32>>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(path) = line.strip_prefix("+++ ") {
            current = Some(path.strip_prefix("b/").unwrap_or(path).to_owned());
        } else if let Some(path) = line.strip_prefix("--- ") {
            if path != "/dev/null" {
                current = Some(path.strip_prefix("a/").unwrap_or(path).to_owned());
            }
        } else if let (Some(header), Some(path)) = (line.strip_prefix("@@ -"), &current) {
            let old = header.split(' ').next().unwrap_or("");
            let mut parts = old.splitn(2, ',');
            let start: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
            let count: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(1);
            let range = if count == 0 {
                start..start + 1
            } else {
                start..start + count
            };
            touched.entry(path.clone()).or_default().push(range);
        }
    }
    Ok(touched)
}

/// Whether two changes to a file touch the same or neighbouring lines.
pub fn ranges_meet(a: &[Range<u32>], b: &[Range<u32>]) -> bool {
    a.iter()
        .any(|x| b.iter().any(|y| x.start <= y.end && y.start <= x.end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::repo::Repo;
    use crate::tasks::testing::git_repo;

    #[test]
    fn a_worktree_change_is_counted_against_its_base_untracked_files_too() {
        let dir = git_repo();
        let repo = Repo::at(dir.path()).unwrap().unwrap();
        std::fs::write(dir.path().join("a.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n").unwrap();
        crate::tasks::testing::commit_all(dir.path(), "a");
        let base = repo.commit_of("main").unwrap();
        let place = tempfile::tempdir().unwrap();
        let path = place.path().join("t");
        let (wt, _) = Worktree::create(&repo, &path, "foreman/t", &base).unwrap();
        std::fs::write(path.join("a.txt"), "1\n2\nthree\n4\n5\n6\n7\n8\nnine\n").unwrap();
        std::fs::write(path.join("new.txt"), "x\ny\n").unwrap();
        let tree = snapshot_tree(&wt).unwrap();
        let from = diff_base(&wt, "main", None).unwrap();
        assert_eq!(from, base);
        let stats = file_stats(&wt, &from, &tree).unwrap();
        assert_eq!(
            stats,
            vec![
                FileStat {
                    path: "a.txt".into(),
                    added: 2,
                    removed: 1
                },
                FileStat {
                    path: "new.txt".into(),
                    added: 2,
                    removed: 0
                },
            ]
        );
        let touched = touched_lines(&wt, &from, &tree).unwrap();
        assert_eq!(touched["a.txt"], vec![3..4, 8..9]);
        let (next_to_nine, six) = (vec![9..10, 20..21], vec![5..6, 30..31]);
        assert!(ranges_meet(&touched["a.txt"], &next_to_nine));
        assert!(!ranges_meet(&touched["a.txt"], &six));
        // The worktree's own index was not touched: nothing is staged.
        assert_eq!(
            git::run(&path, ["diff", "--cached", "--name-only"]).unwrap(),
            ""
        );
    }

    #[test]
    fn snapshots_taken_at_once_do_not_trip_over_each_other() {
        // The app lists tasks from several commands at once (the sidebar, the inbox, an
        // action's answer), each measuring every worktree in the same process.
        let dir = git_repo();
        let repo = Repo::at(dir.path()).unwrap().unwrap();
        let base = repo.commit_of("main").unwrap();
        let place = tempfile::tempdir().unwrap();
        let path = place.path().join("t");
        let (wt, _) = Worktree::create(&repo, &path, "foreman/t", &base).unwrap();
        for i in 0..40 {
            std::fs::write(path.join(format!("f{i}.txt")), format!("{i}\n")).unwrap();
        }
        let trees: Vec<String> = std::thread::scope(|s| {
            let runs: Vec<_> = (0..6)
                .map(|_| s.spawn(|| (0..5).map(|_| snapshot_tree(&wt)).collect::<Vec<_>>()))
                .collect();
            runs.into_iter()
                .flat_map(|r| r.join().unwrap())
                .map(|t| t.unwrap_or_else(|e| panic!("{e}")))
                .collect()
        });
        assert!(trees.windows(2).all(|w| w[0] == w[1]), "{trees:?}");
        // Nothing of the private indexes is left behind.
        let left: Vec<_> = std::fs::read_dir(&wt.git_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("foreman-index"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
