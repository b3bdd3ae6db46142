//! Whole-workspace checkpoints in a real shadow repository: what a checkpoint records and
//! leaves out, what changed between two, a rewind (itself undoable), and through the session:
//! a command's changes on its card and a rewind to before a message.

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use foreman_core::checkpoints::{Checkpoints, Coverage};
use foreman_core::conversation::open_session;
use foreman_core::protocol::{ApprovalMode, ChangeKind, EventMsg, Op};
use foreman_core::store::Store;
use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

/// A workspace that is a git repository with a nested one, an ignored file, a symlink, an
/// executable, a name that is not UTF-8 and a file over the size limit.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let git = |args: &[&str], at: &Path| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(at)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"], root);
    write(root, "src/main.rs", "fn main() {}\n");
    write(root, "README.md", "hello\n");
    write(root, ".gitignore", "target/\n*.log\n");
    write(root, "target/debug/app", "binary\n");
    write(root, "build.log", "noise\n");
    write(root, "big.bin", &"x".repeat(4096));
    write(root, "vendor/lib/README", "nested\n");
    git(&["init", "-q"], &root.join("vendor/lib"));
    write(root, "run.sh", "#!/bin/sh\necho hi\n");
    std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink("README.md", root.join("link")).unwrap();
    let odd = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(root.join(odd), "latin-1 name\n").unwrap();
    dir
}

fn git_dir_listing(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in walk(&root.join(".git")) {
        let bytes = std::fs::read(&entry).unwrap_or_default();
        out.push((entry.display().to_string(), bytes));
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn a_rewind_restores_files_links_and_modes_and_can_itself_be_undone() {
    let ws = workspace();
    let root = ws.path();
    let store = tempfile::tempdir().unwrap();
    let checkpoints = Checkpoints::open(store.path(), root)
        .unwrap()
        .with_max_file_bytes(1024);
    let git_before = git_dir_listing(root);
    let first = checkpoints.take("before").unwrap();
    let skipped: Vec<&str> = first.skipped.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(skipped, ["big.bin"], "{:?}", first.skipped);
    assert!(
        first.skipped[0]
            .reason
            .contains("over the 1024 bytes limit")
    );

    // What a command might do: edit, delete, create, retarget a link, drop the exec bit.
    write(
        root,
        "src/main.rs",
        "fn main() { println!(\"changed\"); }\n",
    );
    std::fs::remove_file(root.join("README.md")).unwrap();
    write(root, "src/new.rs", "pub fn new() {}\n");
    std::fs::remove_file(root.join("link")).unwrap();
    std::os::unix::fs::symlink("src/main.rs", root.join("link")).unwrap();
    std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o644)).unwrap();
    write(root, "build.log", "more noise\n");
    write(root, "big.bin", &"y".repeat(4096));
    let second = checkpoints.take("after").unwrap();
    let changes = checkpoints.changes(&first.id, &second.id).unwrap();
    let listed: Vec<(&str, ChangeKind)> =
        changes.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(
        listed,
        [
            ("README.md", ChangeKind::Deleted),
            // Ignored, and kept: a command that changes it says so.
            ("build.log", ChangeKind::Modified),
            ("link", ChangeKind::Modified),
            ("run.sh", ChangeKind::Modified),
            ("src/main.rs", ChangeKind::Modified),
            ("src/new.rs", ChangeKind::Added),
        ]
    );
    let main = changes.iter().find(|c| c.path == "src/main.rs").unwrap();
    let diff = main.diff.as_ref().expect("text files get a diff");
    assert_eq!((diff.added, diff.removed), (1, 1));
    assert!(
        changes
            .iter()
            .find(|c| c.path == "link")
            .unwrap()
            .diff
            .is_none()
    );

    let rewound = checkpoints.rewind(&first.id).unwrap();
    assert_eq!(rewound.changes.len(), 6);
    assert_eq!(
        std::fs::read_to_string(root.join("README.md")).unwrap(),
        "hello\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("src/main.rs")).unwrap(),
        "fn main() {}\n"
    );
    assert!(!root.join("src/new.rs").exists());
    assert_eq!(
        std::fs::read_link(root.join("link")).unwrap(),
        Path::new("README.md")
    );
    let mode = std::fs::metadata(root.join("run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "the exec bit is back");
    // A kept ignored file is back; skipped files, what an excluded folder (`target/`) holds
    // and the user's repositories are left alone.
    assert_eq!(
        std::fs::read_to_string(root.join("build.log")).unwrap(),
        "noise\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("big.bin")).unwrap(),
        "y".repeat(4096)
    );
    assert_eq!(
        std::fs::read_to_string(root.join("target/debug/app")).unwrap(),
        "binary\n"
    );
    assert_eq!(
        git_dir_listing(root),
        git_before,
        "the user's .git is untouched"
    );
    assert!(root.join("vendor/lib/.git").is_dir());
    let odd = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    assert_eq!(
        std::fs::read_to_string(root.join(odd)).unwrap(),
        "latin-1 name\n"
    );

    // The rewind was checkpointed first: going back to that undoes it.
    checkpoints.rewind(&rewound.now.id).unwrap();
    assert!(root.join("src/new.rs").exists());
    assert!(!root.join("README.md").exists());
}

#[test]
fn ignored_files_a_command_deletes_come_back_and_older_checkpoints_leave_them_alone() {
    let ws = workspace();
    let root = ws.path();
    write(
        root,
        ".gitignore",
        "target/\n*.log\n.env.local\nnode_modules/\n",
    );
    write(root, ".env.local", "API_URL=http://localhost\n");
    write(root, "node_modules/pkg/index.js", "module.exports = 1\n");
    let store = tempfile::tempdir().unwrap();
    // A checkpoint of an older Foreman, which kept only what git sees.
    let old = Checkpoints::open(store.path(), root)
        .unwrap()
        .with_coverage(Coverage::visible_only(10 << 20))
        .take("from before")
        .unwrap();
    let checkpoints = Checkpoints::open(store.path(), root).unwrap();
    let before = checkpoints.take("before git clean").unwrap();
    // `git clean -fdx`, as a sandboxed command would run it.
    let cleaned = std::process::Command::new("git")
        .args(["clean", "-fdxq"])
        .current_dir(root)
        .status()
        .unwrap();
    assert!(cleaned.success());
    assert!(!root.join(".env.local").exists());
    let after = checkpoints.take("after git clean").unwrap();
    let changes = checkpoints.changes(&before.id, &after.id).unwrap();
    let listed: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
    assert!(listed.contains(&".env.local"), "{listed:?}");
    assert!(
        !listed.iter().any(|p| p.starts_with(".foreman")),
        "{listed:?}"
    );
    assert!(
        !listed.iter().any(|p| p.starts_with("node_modules")),
        "{listed:?}"
    );
    checkpoints.rewind(&before.id).unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join(".env.local")).unwrap(),
        "API_URL=http://localhost\n"
    );
    assert!(
        !root.join(".foreman").exists(),
        "nothing of Foreman's own is written"
    );
    // Rewinding to a checkpoint that never kept ignored files leaves them as they are.
    write(root, ".env.local", "API_URL=http://staging\n");
    checkpoints.rewind(&old.id).unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join(".env.local")).unwrap(),
        "API_URL=http://staging\n"
    );
}

#[test]
fn a_checkpoint_reads_only_what_changed_and_survives_a_restart() {
    let ws = workspace();
    let root = ws.path();
    let store = tempfile::tempdir().unwrap();
    let checkpoints = Checkpoints::open(store.path(), root).unwrap();
    // A file written within the clock's step before a checkpoint is read again by the next one
    // (git's "racy" files): the workspace was just written.
    std::thread::sleep(std::time::Duration::from_millis(50));
    let first = checkpoints.take("one").unwrap();
    assert!(first.read >= 7, "{}", first.read);
    assert_eq!(checkpoints.take("two").unwrap().read, 0);
    write(root, "src/main.rs", "fn main() { }\n");
    assert_eq!(checkpoints.take("three").unwrap().read, 1);
    // Another process opens the same repository and rewinds with it.
    let reopened = Checkpoints::open(store.path(), root).unwrap();
    reopened.rewind(&first.id).unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("src/main.rs")).unwrap(),
        "fn main() {}\n"
    );
}

/// Through the session: a command's changes on its card, a rewind planned and confirmed, and
/// the model told.
#[tokio::test]
async fn a_commands_changes_are_listed_and_a_rewind_puts_them_back() {
    let store_dir = tempfile::tempdir().unwrap();
    let store = Store::open(&store_dir.path().join("foreman.db"))
        .await
        .unwrap();
    let outside = tempfile::tempdir().unwrap();
    let turns = [
        vec![super::common::write("w", "tool.txt", "by the file tool\n")],
        vec![call(
            "b",
            "bash",
            json!({"command": "echo gamma >> notes.txt && mkdir -p out && echo made > out/new.txt && rm -f old.txt"}),
        )],
        done("d"),
        done("d2"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let (data, checkpoints_dir) = (
        outside.path().join("data"),
        outside.path().join("checkpoints"),
    );
    let session = store.create_session("/ws", 1).await.unwrap();
    let history = open_session(&store, "/ws", Some(&session.id))
        .await
        .unwrap()
        .unwrap()
        .1;
    let (s, id) = (store.clone(), session.id.clone());
    let mut h = start_with(Wire::Anthropic, responses, move |c| {
        c.approval_mode = ApprovalMode::Auto;
        c.data_dir = data;
        c.checkpoints_dir = Some(checkpoints_dir);
        c.store = Some(s);
        c.session_id = Some(id);
        c.history = history;
    })
    .await;
    std::fs::write(h.dir.path().join("old.txt"), "old\n").unwrap();
    h.say("change things");
    assert!(h.end().await.is_success());
    let changes = h
        .seen
        .iter()
        .find_map(|e| match &e.msg {
            EventMsg::CallChanges { call_id, changes } if call_id == "b" => Some(changes.clone()),
            _ => None,
        })
        .expect("the command's card lists what it changed");
    let listed: Vec<(&str, ChangeKind)> =
        changes.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(
        listed,
        [
            ("notes.txt", ChangeKind::Modified),
            ("old.txt", ChangeKind::Deleted),
            ("out/new.txt", ChangeKind::Added),
        ]
    );

    h.send(Op::Rewind {
        before_message: 0,
        confirm: false,
    });
    let EventMsg::RewindPlanned { plan } = h
        .until(|m| matches!(m, EventMsg::RewindPlanned { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(
        plan.changes.len(),
        4,
        "the file tool's write and the command's changes: {plan:?}"
    );
    assert!(plan.changed_outside.is_empty(), "{plan:?}");
    assert_eq!(
        h.file("notes.txt"),
        "alpha\nbeta\ngamma\n",
        "planning changes nothing"
    );
    // The user edits a file after the task: the plan says the rewind overwrites it.
    std::fs::write(h.dir.path().join("notes.txt"), "mine\n").unwrap();
    h.send(Op::Rewind {
        before_message: 0,
        confirm: false,
    });
    let EventMsg::RewindPlanned { plan } = h
        .until(|m| matches!(m, EventMsg::RewindPlanned { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(plan.changed_outside, ["notes.txt"]);
    h.send(Op::Rewind {
        before_message: 0,
        confirm: true,
    });
    h.until(|m| matches!(m, EventMsg::Rewound { .. })).await;
    assert_eq!(h.file("notes.txt"), "alpha\nbeta\n");
    assert_eq!(h.file("old.txt"), "old\n");
    assert!(!h.dir.path().join("out/new.txt").exists());
    assert!(
        !h.dir.path().join("tool.txt").exists(),
        "the file tool's change is rewound too"
    );
    // The rewind is undone: the workspace is as it was just before it, the user's edit too.
    h.send(Op::UndoRewind);
    h.until(|m| matches!(m, EventMsg::Rewound { undone: true, .. }))
        .await;
    assert_eq!(h.file("notes.txt"), "mine\n");
    assert!(h.dir.path().join("out/new.txt").exists());
    assert!(!h.dir.path().join("old.txt").exists());
    h.say("and now?");
    assert!(h.end().await.is_success());
    let told = h.request_text(3);
    assert!(
        told.contains("I rewound the workspace to how it was before my message 1"),
        "{told}"
    );
}

#[test]
fn over_the_cap_the_oldest_checkpoints_go_and_the_newest_still_rewind() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    let store = tempfile::tempdir().unwrap();
    let checkpoints = Checkpoints::open(store.path(), root).unwrap();
    let mut ids = Vec::new();
    for round in 0..4u32 {
        // Content that does not compress away: each round's file is new to the repository.
        let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ u64::from(round);
        let noise: String = (0..60_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                char::from(b'a' + (x % 26) as u8)
            })
            .collect();
        write(root, "data.txt", &noise);
        ids.push(checkpoints.take(&format!("round {round}")).unwrap().id);
    }
    let before = checkpoints.usage();
    let newest_first: Vec<String> = ids.iter().rev().cloned().collect();
    let collected = checkpoints.collect(&newest_first, before / 2).unwrap();
    assert!(
        !collected.dropped.is_empty(),
        "{collected:?} of {before} at {}",
        checkpoints.path().display()
    );
    assert_eq!(
        collected.dropped.last(),
        ids.first(),
        "the oldest goes first"
    );
    assert!(!collected.dropped.contains(&ids[3]), "the newest stays");
    assert!(checkpoints.usage() <= before - collected.freed + 1);
    assert!(collected.freed > 0);
    // The newest still rewinds; a dropped one says it is gone instead of half-working.
    write(root, "data.txt", "changed\n");
    checkpoints.rewind(&ids[3]).unwrap();
    assert_ne!(
        std::fs::read_to_string(root.join("data.txt")).unwrap(),
        "changed\n"
    );
    assert!(checkpoints.rewind(&ids[0]).is_err());
    let under = checkpoints.collect(&newest_first[..1], u64::MAX).unwrap();
    assert!(under.dropped.is_empty(), "under the cap nothing goes");
}

#[test]
fn a_command_that_writes_a_large_file_lists_it_with_a_bounded_diff() {
    let ws = workspace();
    let root = ws.path();
    let store = tempfile::tempdir().unwrap();
    let checkpoints = Checkpoints::open(store.path(), root).unwrap();
    let before = checkpoints.take("before").unwrap();
    let big: String = (0..100_000).map(|n| format!("row {n}\n")).collect();
    write(root, "data.csv", &big);
    let after = checkpoints.take("after").unwrap();
    let changes = checkpoints.changes(&before.id, &after.id).unwrap();
    let diff = changes
        .iter()
        .find(|c| c.path == "data.csv")
        .and_then(|c| c.diff.as_ref())
        .expect("a text file gets a diff");
    assert_eq!(diff.added, 100_000);
    assert!(diff.line_count() <= foreman_core::protocol::PREVIEW_LINES_SENT);
    assert_eq!(diff.line_count() + diff.lines_left_out as usize, 100_000);
    assert!(serde_json::to_vec(&changes).unwrap().len() < 512 * 1024);
}
