//! Which changed paths matter: not `.git/` internals, not Foreman's own `.foreman/` (session
//! artefacts), not ignored files, not the default excludes (`node_modules`, `target`, `dist`).

use std::path::{Component, Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// Directories never reported, wherever they are in the tree.
const DEFAULT_EXCLUDES: &[&str] = &[".git", ".foreman", "node_modules", "target", "dist"];

pub struct ChangeFilter {
    root: PathBuf,
    ignores: Gitignore,
}

impl ChangeFilter {
    /// Reads the root's `.gitignore` and `.ignore` (nested ignore files are not read here).
    pub fn new(root: &Path) -> Self {
        let mut builder = GitignoreBuilder::new(root);
        for name in [".gitignore", ".ignore"] {
            let file = root.join(name);
            if file.is_file() {
                // A malformed line is skipped by the builder; the rest still applies.
                let _ = builder.add(file);
            }
        }
        let ignores = builder.build().unwrap_or_else(|_| Gitignore::empty());
        Self {
            root: root.to_path_buf(),
            ignores,
        }
    }

    /// The workspace-relative path (with `/`) when `path` is a change worth reporting.
    pub fn relevant(&self, path: &Path) -> Option<String> {
        let relative = path.strip_prefix(&self.root).ok()?;
        if relative.as_os_str().is_empty() {
            return None;
        }
        let excluded = relative.components().any(|c| match c {
            Component::Normal(name) => DEFAULT_EXCLUDES.iter().any(|d| name == *d),
            _ => false,
        });
        if excluded {
            return None;
        }
        let is_dir = path.is_dir();
        if self
            .ignores
            .matched_path_or_any_parents(relative, is_dir)
            .is_ignore()
        {
            return None;
        }
        Some(relative.to_string_lossy().replace('\\', "/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_excludes_and_ignore_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join(".gitignore"), "*.tmp\nout/\n!keep.tmp\n").unwrap();
        let f = ChangeFilter::new(&root);
        assert_eq!(
            f.relevant(&root.join("src/a.rs")).as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(f.relevant(&root.join("x.tmp")), None);
        assert_eq!(
            f.relevant(&root.join("keep.tmp")).as_deref(),
            Some("keep.tmp")
        );
        assert_eq!(f.relevant(&root.join("out/deep/file")), None);
        assert_eq!(f.relevant(&root.join("a/node_modules/p/index.js")), None);
        assert_eq!(f.relevant(&root.join(".git/HEAD")), None);
        assert_eq!(f.relevant(&root.join(".foreman/data/out-1.txt")), None);
        assert_eq!(f.relevant(Path::new("/elsewhere/file")), None);
        assert_eq!(f.relevant(&root), None);
    }
}
