//! Which changed paths matter: not `.git/` internals, not Foreman's own `.foreman/` (session
//! artefacts), not ignored files, not the default excludes (`node_modules`, `target`, `dist`).
//!
//! Ignore rules are read the way git reads them: every directory's `.gitignore` (and `.ignore`,
//! whose patterns take precedence over the `.gitignore` next to it) applies to the paths below
//! it, the deepest file with a matching pattern decides, and nothing inside an ignored
//! directory is reported even if a deeper file would re-include it. The root also reads
//! `.git/info/exclude`, below its `.gitignore` in precedence. Each directory's files are read
//! the first time a change below it is checked, and read again when one of them changes.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// Directories never reported, wherever they are in the tree.
const DEFAULT_EXCLUDES: &[&str] = &[".git", ".foreman", "node_modules", "target", "dist"];

/// The ignore files of a directory, lowest precedence first.
const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore"];

/// The repository's own excludes, relative to the root.
const GIT_EXCLUDE: &str = ".git/info/exclude";

pub struct ChangeFilter {
    root: PathBuf,
    /// The ignore rules of each directory looked at so far; `None` when it has none.
    rules: HashMap<PathBuf, Option<Gitignore>>,
}

impl ChangeFilter {
    pub fn new(root: &Path) -> Self {
        Self {
            root: root.to_path_buf(),
            rules: HashMap::new(),
        }
    }

    /// The workspace-relative path (with `/`) when `path` is a change worth reporting.
    pub fn relevant(&mut self, path: &Path) -> Option<String> {
        let relative = path.strip_prefix(&self.root).ok()?;
        if relative.as_os_str().is_empty() {
            return None;
        }
        let excluded = relative.components().any(|c| match c {
            Component::Normal(name) => DEFAULT_EXCLUDES.iter().any(|d| name == *d),
            _ => false,
        });
        if excluded || self.ignored(relative) {
            return None;
        }
        Some(relative.to_string_lossy().replace('\\', "/"))
    }

    /// Takes note of a changed path before it is checked: a changed ignore file is read again
    /// when next needed, and a deleted directory's rules (and those below it) are forgotten.
    pub fn note_change(&mut self, path: &Path) {
        if self.rules.contains_key(path) && !path.exists() {
            self.rules.retain(|dir, _| !dir.starts_with(path));
            return;
        }
        let is_ignore_file = path
            .file_name()
            .is_some_and(|name| IGNORE_FILES.iter().any(|f| name == *f));
        if is_ignore_file {
            if let Some(dir) = path.parent() {
                self.rules.remove(dir);
            }
        } else if path == self.root.join(GIT_EXCLUDE) {
            self.rules.remove(&self.root);
        }
    }

    /// Whether `relative` (to the root) or a directory above it is ignored.
    fn ignored(&mut self, relative: &Path) -> bool {
        let components: Vec<Component> = relative.components().collect();
        // The directories from the root down to `path`'s parent; `dirs[d]` is at depth `d`.
        let mut dirs = vec![self.root.clone()];
        for component in components.iter().take(components.len().saturating_sub(1)) {
            let next = dirs[dirs.len() - 1].join(component);
            dirs.push(next);
        }
        for dir in &dirs {
            if !self.rules.contains_key(dir) {
                let rules = read_rules(dir, *dir == self.root);
                self.rules.insert(dir.clone(), rules);
            }
        }
        let rules: Vec<Option<&Gitignore>> = dirs
            .iter()
            .map(|dir| self.rules.get(dir).and_then(Option::as_ref))
            .collect();
        // Top down: a path inside an ignored directory is ignored whatever deeper files say.
        let mut current = self.root.clone();
        for (depth, component) in components.iter().enumerate() {
            current.push(component);
            // Every step but the last is a directory on the way down.
            let is_dir = depth + 1 < components.len() || current.is_dir();
            // The deepest directory above `current` with a matching pattern decides.
            let decision = (0..=depth).rev().find_map(|d| {
                let below = current.strip_prefix(&dirs[d]).ok()?;
                let matched = rules[d]?.matched(below, is_dir);
                (!matched.is_none()).then(|| matched.is_ignore())
            });
            if decision == Some(true) {
                return true;
            }
        }
        false
    }
}

/// The ignore rules of `dir`, if it has any.
fn read_rules(dir: &Path, is_root: bool) -> Option<Gitignore> {
    let mut builder = GitignoreBuilder::new(dir);
    let exclude = is_root.then(|| dir.join(GIT_EXCLUDE));
    let files = exclude
        .into_iter()
        .chain(IGNORE_FILES.iter().map(|name| dir.join(name)));
    for file in files.filter(|file| file.is_file()) {
        // A malformed line is skipped by the builder; the rest of the file still applies.
        let _ = builder.add(file);
    }
    let rules = builder.build().ok()?;
    (!rules.is_empty()).then_some(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        (dir, root)
    }

    fn write(root: &Path, relative: &str, text: &str) {
        let path = root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn filters_excludes_and_ignore_files() {
        let (_dir, root) = workspace();
        write(&root, ".gitignore", "*.tmp\nout/\n!keep.tmp\n");
        let mut f = ChangeFilter::new(&root);
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

    #[test]
    fn nested_ignore_files_apply_below_their_directory_and_the_deepest_decides() {
        let (_dir, root) = workspace();
        write(&root, ".gitignore", "*.log\n");
        write(&root, "web/.gitignore", "build/\n/local.txt\n!keep.log\n");
        write(&root, "web/src/.ignore", "*.gen.ts\n");
        let mut f = ChangeFilter::new(&root);
        // The nested file's patterns, anchored at its directory.
        assert_eq!(f.relevant(&root.join("web/build/app.js")), None);
        assert_eq!(f.relevant(&root.join("web/local.txt")), None);
        assert!(f.relevant(&root.join("web/src/local.txt")).is_some());
        assert!(f.relevant(&root.join("build/app.js")).is_some());
        assert!(f.relevant(&root.join("local.txt")).is_some());
        // The deepest match decides: `web/` re-includes a file the root ignores.
        assert_eq!(f.relevant(&root.join("debug.log")), None);
        assert_eq!(f.relevant(&root.join("web/debug.log")), None);
        assert_eq!(
            f.relevant(&root.join("web/keep.log")).as_deref(),
            Some("web/keep.log")
        );
        assert_eq!(f.relevant(&root.join("web/src/api.gen.ts")), None);
        assert!(f.relevant(&root.join("web/src/api.ts")).is_some());
        assert!(f.relevant(&root.join("api.gen.ts")).is_some());
    }

    #[test]
    fn nothing_inside_an_ignored_directory_is_reported() {
        let (_dir, root) = workspace();
        write(&root, ".gitignore", "cache/\n");
        // Git does not read ignore files inside an ignored directory, so this cannot re-include.
        write(&root, "cache/.gitignore", "!*\n");
        let mut f = ChangeFilter::new(&root);
        assert_eq!(f.relevant(&root.join("cache/entry.bin")), None);
        assert_eq!(f.relevant(&root.join("cache/.gitignore")), None);
    }

    #[test]
    fn the_repository_excludes_apply_below_the_root_gitignore() {
        let (_dir, root) = workspace();
        write(&root, ".git/info/exclude", "scratch/\n*.bak\n");
        write(&root, ".gitignore", "!important.bak\n");
        let mut f = ChangeFilter::new(&root);
        assert_eq!(f.relevant(&root.join("scratch/notes.md")), None);
        assert_eq!(f.relevant(&root.join("old.bak")), None);
        assert!(f.relevant(&root.join("important.bak")).is_some());
    }

    #[test]
    fn a_changed_ignore_file_is_read_again_once_noted() {
        let (_dir, root) = workspace();
        write(&root, "pkg/.gitignore", "gen/\n");
        let mut f = ChangeFilter::new(&root);
        assert_eq!(f.relevant(&root.join("pkg/gen/a.rs")), None);
        assert!(f.relevant(&root.join("pkg/out/a.rs")).is_some());

        write(&root, "pkg/.gitignore", "out/\n");
        f.note_change(&root.join("pkg/.gitignore"));
        assert!(f.relevant(&root.join("pkg/gen/a.rs")).is_some());
        assert_eq!(f.relevant(&root.join("pkg/out/a.rs")), None);

        // A directory that had no ignore file gains one.
        assert!(f.relevant(&root.join("lib/tmp/x")).is_some());
        write(&root, "lib/.ignore", "tmp/\n");
        f.note_change(&root.join("lib/.ignore"));
        assert_eq!(f.relevant(&root.join("lib/tmp/x")), None);

        // And loses it again.
        std::fs::remove_file(root.join("lib/.ignore")).unwrap();
        f.note_change(&root.join("lib/.ignore"));
        assert!(f.relevant(&root.join("lib/tmp/x")).is_some());
    }

    #[test]
    fn a_deleted_directorys_rules_are_forgotten() {
        let (_dir, root) = workspace();
        write(&root, "web/.gitignore", "build/\n");
        write(&root, "web/src/deep/a.ts", "");
        let mut f = ChangeFilter::new(&root);
        assert!(f.relevant(&root.join("web/src/deep/a.ts")).is_some());
        assert_eq!(f.relevant(&root.join("web/build/out.js")), None);
        assert!(f.rules.contains_key(&root.join("web/src/deep")));

        std::fs::remove_dir_all(root.join("web")).unwrap();
        f.note_change(&root.join("web/src/deep/a.ts"));
        f.note_change(&root.join("web"));
        assert_eq!(
            f.rules.keys().collect::<Vec<_>>(),
            vec![&root],
            "only the root's rules are left"
        );
        // A directory of the same name made again has no rules until it has an ignore file.
        write(&root, "web/build/out.js", "");
        assert!(f.relevant(&root.join("web/build/out.js")).is_some());
    }
}
