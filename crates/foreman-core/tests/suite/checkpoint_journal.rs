//! Checkpoints that look only at what the real watcher saw change, against the full scan as the
//! reference: after random edits, renames, deletes, mode and symlink changes and `.gitignore`
//! changes, both give the same tree; and a real inotify queue overflow falls back to a full scan
//! that says so in the log.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use foreman_core::checkpoints::{Checkpoint, Checkpoints};
use foreman_core::watcher::WorkspaceWatcher;
use proptest::prelude::*;

const DIRS: &[&str] = &["", "a", "a/b", "c", "target"];
const NAMES: &[&str] = &["x.txt", "y.rs", "z", "w.md"];

#[derive(Debug, Clone)]
enum Edit {
    Write {
        dir: usize,
        name: usize,
        text: String,
    },
    Delete {
        dir: usize,
        name: usize,
    },
    RenameFile {
        from: (usize, usize),
        to: (usize, usize),
    },
    RenameDir {
        from: usize,
        to: usize,
    },
    DeleteDir {
        dir: usize,
    },
    Chmod {
        dir: usize,
        name: usize,
        executable: bool,
    },
    Link {
        dir: usize,
        name: usize,
        target: String,
    },
    Ignore {
        patterns: Vec<&'static str>,
    },
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = (0..DIRS.len(), 0..NAMES.len());
    prop_oneof![
        4 => (at.clone(), "[a-c]{0,6}").prop_map(|((dir, name), text)| Edit::Write { dir, name, text }),
        2 => at.clone().prop_map(|(dir, name)| Edit::Delete { dir, name }),
        2 => (at.clone(), at.clone()).prop_map(|(from, to)| Edit::RenameFile { from, to }),
        1 => (0..DIRS.len(), 0..DIRS.len()).prop_map(|(from, to)| Edit::RenameDir { from, to }),
        1 => (0..DIRS.len()).prop_map(|dir| Edit::DeleteDir { dir }),
        1 => (at.clone(), any::<bool>()).prop_map(|((dir, name), executable)| Edit::Chmod { dir, name, executable }),
        1 => (at, "[a-z./]{1,8}").prop_map(|((dir, name), target)| Edit::Link { dir, name, target }),
        1 => proptest::sample::subsequence(vec!["*.md", "c/", "target/", "a/b/z", "!w.md"], 0..3)
            .prop_map(|patterns| Edit::Ignore { patterns }),
    ]
}

fn path(root: &Path, dir: usize, name: usize) -> std::path::PathBuf {
    root.join(DIRS[dir]).join(NAMES[name])
}

/// Applies `edit`; errors (a missing source, a folder in the way) are part of the game.
fn apply(root: &Path, edit: &Edit) {
    match edit {
        Edit::Write { dir, name, text } => {
            let target = path(root, *dir, *name);
            let _ = std::fs::create_dir_all(target.parent().unwrap());
            let _ = std::fs::write(target, text);
        }
        Edit::Delete { dir, name } => {
            let _ = std::fs::remove_file(path(root, *dir, *name));
        }
        Edit::RenameFile { from, to } => {
            let target = path(root, to.0, to.1);
            let _ = std::fs::create_dir_all(target.parent().unwrap());
            let _ = std::fs::rename(path(root, from.0, from.1), target);
        }
        Edit::RenameDir { from, to } => {
            if DIRS[*from].is_empty() || DIRS[*to].is_empty() {
                return;
            }
            let _ = std::fs::rename(root.join(DIRS[*from]), root.join(DIRS[*to]));
        }
        Edit::DeleteDir { dir } => {
            if !DIRS[*dir].is_empty() {
                let _ = std::fs::remove_dir_all(root.join(DIRS[*dir]));
            }
        }
        Edit::Chmod {
            dir,
            name,
            executable,
        } => {
            let mode = if *executable { 0o755 } else { 0o644 };
            let _ = std::fs::set_permissions(
                path(root, *dir, *name),
                std::fs::Permissions::from_mode(mode),
            );
        }
        Edit::Link { dir, name, target } => {
            let link = path(root, *dir, *name);
            let _ = std::fs::create_dir_all(link.parent().unwrap());
            let _ = std::fs::remove_file(&link);
            let _ = std::os::unix::fs::symlink(target, link);
        }
        Edit::Ignore { patterns } => {
            let _ = std::fs::write(root.join(".gitignore"), patterns.join("\n"));
        }
    }
}

/// The tree a full scan of `root` gives, in a repository of its own.
fn reference(root: &Path) -> Checkpoint {
    let repos = tempfile::tempdir().unwrap();
    let fresh = Checkpoints::open(repos.path(), root).unwrap();
    let taken = fresh.take("reference").unwrap();
    assert!(taken.full_scan.is_some());
    taken
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn a_checkpoint_of_what_the_watcher_saw_equals_a_full_scan(
        steps in proptest::collection::vec(proptest::collection::vec(edit(), 1..5), 1..6)
    ) {
        let runtime = runtime();
        let _entered = runtime.enter();
        let workspace = tempfile::tempdir().unwrap();
        let root = workspace.path().canonicalize().unwrap();
        for (dir, name) in [(0, 0), (1, 1), (2, 2), (3, 3), (4, 0)] {
            apply(&root, &Edit::Write { dir, name, text: format!("{dir}{name}") });
        }
        let repos = tempfile::tempdir().unwrap();
        let checkpoints = Checkpoints::open(repos.path(), &root).unwrap();
        let (watcher, _reports) = WorkspaceWatcher::start(&root, Duration::from_millis(20)).unwrap();
        checkpoints.attach(watcher.journal());
        let first = checkpoints.take("first").unwrap();
        prop_assert!(first.full_scan.is_some());
        for edits in steps {
            for edit in &edits {
                apply(&root, edit);
            }
            let taken = checkpoints.take("step").unwrap();
            let ignores_changed = edits.iter().any(|e| matches!(e, Edit::Ignore { .. }));
            if !ignores_changed {
                prop_assert_eq!(&taken.full_scan, &None, "{:?}", edits);
            }
            let expected = reference(&root);
            prop_assert_eq!(&taken.tree, &expected.tree, "after {:?}", edits);
            prop_assert_eq!(&taken.skipped, &expected.skipped);
        }
    }
}

/// Log lines of `tracing` events, as ` key=value …`: every thread's, as the app's log has them.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<String>>>);

/// The test binary's log, from the first call on.
fn log() -> &'static Lines {
    static LOG: std::sync::OnceLock<Lines> = std::sync::OnceLock::new();
    LOG.get_or_init(|| {
        let lines = Lines::default();
        tracing::subscriber::set_global_default(lines.clone())
            .expect("no other test sets a global subscriber");
        lines
    })
}

struct Line<'a>(&'a mut String);

impl tracing::field::Visit for Line<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        use std::fmt::Write;
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl tracing::Subscriber for Lines {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut line = String::new();
        event.record(&mut Line(&mut line));
        self.0.lock().unwrap().push(line);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[test]
fn a_watcher_overflow_falls_back_to_a_full_scan_that_says_so() {
    log();
    let runtime = runtime();
    let _entered = runtime.enter();
    let workspace = tempfile::tempdir().unwrap();
    let root = workspace.path().canonicalize().unwrap();
    std::fs::write(root.join("kept.txt"), "kept").unwrap();
    std::fs::create_dir(root.join("many")).unwrap();
    let repos = tempfile::tempdir().unwrap();
    let checkpoints = Checkpoints::open(repos.path(), &root).unwrap();
    let (watcher, _reports) = WorkspaceWatcher::start(&root, Duration::from_millis(20)).unwrap();
    let journal = watcher.journal();
    checkpoints.attach(journal.clone());
    assert!(checkpoints.take("first").unwrap().full_scan.is_some());

    // An ordinary change is looked at alone.
    std::fs::write(root.join("kept.txt"), "changed").unwrap();
    let quiet = checkpoints.take("one change").unwrap();
    assert_eq!((quiet.full_scan.clone(), quiet.read), (None, 1));

    // The watcher's thread stops at its next event while far more changes than the kernel
    // queues (fs.inotify.max_queued_events, 16,384 here) are made: the kernel drops events.
    let queued: usize = std::fs::read_to_string("/proc/sys/fs/inotify/max_queued_events")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(16_384);
    {
        let _held = journal.hold();
        // Each write is several events (create, open, modify, close).
        for i in 0..queued / 2 {
            std::fs::write(root.join("many").join(format!("f{i}")), "x").unwrap();
        }
    }
    let lines = log();
    let taken = checkpoints.take("after the overflow").unwrap();
    let why = taken
        .full_scan
        .clone()
        .expect("a full scan after an overflow");
    assert!(why.contains("overflowed"), "{why}");
    let logged = lines.0.lock().unwrap().clone();
    assert!(
        logged
            .iter()
            .any(|l| l.contains("scanning the whole workspace")
                && l.contains("overflowed")
                && l.contains(&root.display().to_string())),
        "{logged:?}"
    );
    assert_eq!(taken.tree, reference(&root).tree);

    // Trusted again afterwards.
    std::fs::write(root.join("many/f0"), "y").unwrap();
    let after = checkpoints.take("after").unwrap();
    assert_eq!((after.full_scan, after.read), (None, 1));
    assert_eq!(after.tree, reference(&root).tree);
}
