//! The directory walk shared by `glob` and `grep`: ripgrep's `ignore` crate, honouring
//! `.gitignore`/`.ignore` (even outside a git repository), including hidden files, and always
//! skipping the default excludes.

use std::path::Path;

use ignore::WalkBuilder;

/// Directory names never descended into.
pub const DEFAULT_EXCLUDES: [&str; 4] = [".git", "node_modules", "target", "dist"];

/// A parallel walk builder rooted at `dir` with the standard filters.
pub fn walker(dir: &Path) -> WalkBuilder {
    let mut builder = WalkBuilder::new(dir);
    builder
        .hidden(false)
        .require_git(false)
        .follow_links(false)
        .threads(
            std::thread::available_parallelism()
                .map_or(2, |n| n.get())
                .min(12),
        )
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !(is_dir
                && entry.depth() > 0
                && DEFAULT_EXCLUDES.iter().any(|x| entry.file_name() == *x))
        });
    builder
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn skips_default_excludes_and_gitignored() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for d in [
            "src",
            "node_modules/x",
            "target/debug",
            ".git",
            "dist",
            "build",
            ".hidden",
        ] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        for f in [
            "src/a.rs",
            "node_modules/x/b.js",
            "target/debug/c",
            ".git/HEAD",
            "dist/d.js",
            "build/e.o",
            ".hidden/f",
            ".gitignore",
        ] {
            std::fs::write(root.join(f), "").unwrap();
        }
        std::fs::write(root.join(".gitignore"), "build/\n").unwrap();
        let found = Mutex::new(Vec::new());
        walker(root).build_parallel().run(|| {
            Box::new(|entry| {
                if let Ok(e) = entry
                    && e.file_type().is_some_and(|t| t.is_file())
                {
                    let rel = e.path().strip_prefix(root).unwrap().display().to_string();
                    found.lock().unwrap().push(rel);
                }
                ignore::WalkState::Continue
            })
        });
        let mut found = found.into_inner().unwrap();
        found.sort();
        assert_eq!(found, [".gitignore", ".hidden/f", "src/a.rs"]);
    }
}
