//! The workspace boundary's test corpus: adversarial paths that must be refused and legitimate
//! edge cases that must be accepted (and, where they name files, written and read back).

// Test helpers outside `#[test]` functions unwrap freely too.

use std::path::{Path, PathBuf};

use foreman_core::boundary::{RefusalReason, WorkspaceBoundary};
use foreman_core::builtin_tools::atomic_write::atomic_write;

/// A parent directory holding the workspace `ws`, look-alike siblings and an outside folder,
/// with symbolic links inside the workspace pointing in various directions.
struct Fixture {
    _dir: tempfile::TempDir,
    parent: PathBuf,
    boundary: WorkspaceBoundary,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let parent = dir.path().canonicalize().unwrap();
    let ws = parent.join("ws");
    for d in [
        "ws/sub",
        "ws/dir",
        "ws2",
        "wsx",
        "ws-evil",
        "outside",
        "w\u{0455}",
        "ws\u{200b}",
        "\u{ff57}\u{ff53}",
    ] {
        std::fs::create_dir_all(parent.join(d)).unwrap();
    }
    std::fs::write(parent.join("outside/secret.txt"), "secret").unwrap();
    std::fs::write(ws.join("file.txt"), "inside").unwrap();
    let link =
        |target: &Path, name: &str| std::os::unix::fs::symlink(target, ws.join(name)).unwrap();
    link(Path::new("/etc"), "etc_link");
    link(&parent.join("outside"), "out_link");
    link(&parent.join("ws2"), "ws2_link");
    link(&parent.join("outside/nonexistent"), "dangling_out");
    link(Path::new("../outside"), "rel_out");
    link(Path::new("../.."), "sub/up");
    link(&ws.join("loop_b"), "loop_a");
    link(&ws.join("loop_a"), "loop_b");
    link(&ws.join("chain2"), "chain1");
    link(&parent.join("outside"), "chain2");
    link(&ws.join("file.txt"), "in_link");
    link(&ws.join("dir"), "in_dir_link");
    link(Path::new("."), "self_root_link");
    link(Path::new("sub/../dir"), "rel_in_link");
    let fifo = ws.join("fifo");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(ws.join("sock")).unwrap();
    let boundary = WorkspaceBoundary::new(&ws).unwrap();
    Fixture {
        _dir: dir,
        parent,
        boundary,
    }
}

#[test]
fn adversarial_paths_are_refused() {
    let f = fixture();
    let p = |rel: &str| f.parent.join(rel).display().to_string();
    let long_component = "a".repeat(256);
    let long_path = "a/".repeat(2100);
    let cases: Vec<String> = vec![
        "../outside/secret.txt".into(),
        "..".into(),
        "../".into(),
        "../../../../../../../../etc/passwd".into(),
        "a/../../outside".into(),
        "./../ws2/x".into(),
        "a/b/c/../../../../outside".into(),
        "/etc/passwd".into(),
        "/".into(),
        "/tmp".into(),
        p("ws2/file"),
        p("wsx"),
        p("ws-evil/a"),
        "../ws2".into(),
        "../ws2/../outside".into(),
        p("ws/../outside"),
        p("ws/sub/../../outside/secret.txt"),
        "etc_link".into(),
        "etc_link/passwd".into(),
        "etc_link/../root".into(),
        "out_link/secret.txt".into(),
        "out_link/new_file.txt".into(),
        "out_link/newdir/deeper/f".into(),
        "ws2_link/x".into(),
        "dangling_out".into(),
        "rel_out/secret.txt".into(),
        "sub/up/outside/secret.txt".into(),
        "sub/up".into(),
        "chain1/secret.txt".into(),
        "loop_a/x".into(),
        "foo\0bar".into(),
        "\0".into(),
        "~/.ssh/id_rsa".into(),
        "~".into(),
        "~root/.bashrc".into(),
        "fifo".into(),
        "sock".into(),
        long_component,
        long_path,
        p("w\u{0455}/x"),
        p("ws\u{200b}/x"),
        p("\u{ff57}\u{ff53}/x"),
        "../ws/../../outside".into(),
        "etc_link/".into(),
        "../outside/".into(),
        "out_link/.".into(),
        String::new(),
        "//etc//passwd".into(),
        "/dev/null".into(),
        "/proc/self/root/etc/passwd".into(),
        "sub/../../ws2".into(),
        "./sub/./../../outside".into(),
        "in_dir_link/../../outside".into(),
    ];
    assert!(cases.len() >= 40);
    for raw in &cases {
        let err = match f.boundary.resolve(raw) {
            Ok(resolved) => panic!("{raw:?} was accepted as {}", resolved.display()),
            Err(err) => err,
        };
        assert_eq!(err.code(), "PATH_NOT_IN_WORKSPACE", "{raw:?}");
        assert_eq!(err.root, f.boundary.root(), "{raw:?}");
        let text = err.to_string();
        assert!(
            text.contains(&f.boundary.root().display().to_string()),
            "{raw:?}: {text}"
        );
        if err.reason == RefusalReason::Outside {
            assert!(!err.resolved.starts_with(f.boundary.root()), "{raw:?}");
            assert!(
                text.contains(&err.resolved.display().to_string()),
                "{raw:?}: {text}"
            );
        }
    }
    // Nothing was created outside by resolving.
    assert!(!f.parent.join("outside/new_file.txt").exists());
}

#[test]
fn refusal_reasons_are_specific() {
    let f = fixture();
    let reason = |raw: &str| f.boundary.resolve(raw).unwrap_err().reason;
    assert_eq!(reason("a\0b"), RefusalReason::NulByte);
    assert_eq!(reason("~/x"), RefusalReason::TildeExpansion);
    assert_eq!(reason(&"b".repeat(300)), RefusalReason::TooLong);
    assert_eq!(reason("fifo"), RefusalReason::SpecialFile);
    assert_eq!(reason("loop_a"), RefusalReason::SymlinkLoop);
    assert_eq!(reason("etc_link/passwd"), RefusalReason::Outside);
    assert_eq!(
        f.boundary.resolve("etc_link/passwd").unwrap_err().resolved,
        PathBuf::from("/etc/passwd")
    );
}

#[test]
fn symlink_swapped_between_check_and_use_is_refused() {
    let f = fixture();
    let root = f.boundary.root().to_path_buf();
    std::fs::create_dir(root.join("swap")).unwrap();
    std::fs::write(root.join("swap/f.txt"), "inside").unwrap();
    let checked = f.boundary.resolve("swap/f.txt").unwrap();
    std::fs::remove_dir_all(root.join("swap")).unwrap();
    std::os::unix::fs::symlink(f.parent.join("outside"), root.join("swap")).unwrap();
    std::fs::write(f.parent.join("outside/f.txt"), "outside").unwrap();
    assert!(f.boundary.open_read(&checked).is_err());
    let err = atomic_write(&f.boundary, &checked, b"evil").unwrap_err();
    assert_eq!(err.code(), "PATH_NOT_IN_WORKSPACE");
    assert_eq!(
        std::fs::read_to_string(f.parent.join("outside/f.txt")).unwrap(),
        "outside"
    );
}

#[test]
fn legitimate_paths_are_accepted() {
    let f = fixture();
    let root = f.boundary.root().to_path_buf();
    let abs_file = root.join("file.txt").display().to_string();
    let abs_root = root.display().to_string();
    let max_name = "n".repeat(255);
    let deep: String = (0..60).map(|i| format!("level{i:02}/")).collect::<String>() + "leaf.txt";
    // (raw path, expected path relative to the root, whether it names a file we can write)
    let cases: Vec<(String, String, bool)> = vec![
        (".".into(), "".into(), false),
        ("file.txt".into(), "file.txt".into(), true),
        ("./file.txt".into(), "file.txt".into(), true),
        (".env".into(), ".env".into(), true),
        (".gitignore".into(), ".gitignore".into(), true),
        (".config/app.toml".into(), ".config/app.toml".into(), true),
        (
            "dir with spaces/file name.txt".into(),
            "dir with spaces/file name.txt".into(),
            true,
        ),
        ("ünïcödé/файл.txt".into(), "ünïcödé/файл.txt".into(), true),
        (
            "日本語/ファイル.rs".into(),
            "日本語/ファイル.rs".into(),
            true,
        ),
        ("emoji 🎉.md".into(), "emoji 🎉.md".into(), true),
        (
            "a/b/c/d/e/f/g/h/i/j/k.txt".into(),
            "a/b/c/d/e/f/g/h/i/j/k.txt".into(),
            true,
        ),
        ("a/../file.txt".into(), "file.txt".into(), true),
        ("sub/../sub/x.txt".into(), "sub/x.txt".into(), true),
        (
            "nonexistent/new/file.rs".into(),
            "nonexistent/new/file.rs".into(),
            true,
        ),
        ("dir/".into(), "dir".into(), false),
        ("dir/.".into(), "dir".into(), false),
        (abs_file, "file.txt".into(), true),
        (abs_root, "".into(), false),
        ("in_link".into(), "file.txt".into(), true),
        ("in_dir_link/x.txt".into(), "dir/x.txt".into(), true),
        ("self_root_link/file.txt".into(), "file.txt".into(), true),
        ("rel_in_link/y.txt".into(), "dir/y.txt".into(), true),
        ("..foo".into(), "..foo".into(), true),
        ("...".into(), "...".into(), true),
        ("foo..bar".into(), "foo..bar".into(), true),
        ("-dash-leading".into(), "-dash-leading".into(), true),
        ("#hash".into(), "#hash".into(), true),
        ("file~".into(), "file~".into(), true),
        ("a~b/c".into(), "a~b/c".into(), true),
        (
            "name with 'quotes'".into(),
            "name with 'quotes'".into(),
            true,
        ),
        ("back\\slash".into(), "back\\slash".into(), true),
        ("tab\tname".into(), "tab\tname".into(), true),
        ("%2e%2e%2fencoded".into(), "%2e%2e%2fencoded".into(), true),
        (".git/config".into(), ".git/config".into(), true),
        (
            ".foreman/settings.json".into(),
            ".foreman/settings.json".into(),
            true,
        ),
        (max_name.clone(), max_name, true),
        (deep.clone(), deep, true),
        ("ws2/inner.txt".into(), "ws2/inner.txt".into(), true),
        (
            "outside/not-really.txt".into(),
            "outside/not-really.txt".into(),
            true,
        ),
        ("a/b/../../c.txt".into(), "c.txt".into(), true),
        ("./././dots.txt".into(), "dots.txt".into(), true),
        (
            "sub//double//slash.txt".into(),
            "sub/double/slash.txt".into(),
            true,
        ),
        ("ＡＢＣ.txt".into(), "ＡＢＣ.txt".into(), true),
        (
            "e\u{0301}te\u{0301}.txt".into(),
            "e\u{0301}te\u{0301}.txt".into(),
            true,
        ),
        ("con".into(), "con".into(), true),
        ("*glob?[chars]".into(), "*glob?[chars]".into(), true),
        (
            "\u{ff0e}\u{ff0e}/\u{ff0e}\u{ff0e}/x".into(),
            "\u{ff0e}\u{ff0e}/\u{ff0e}\u{ff0e}/x".into(),
            true,
        ),
    ];
    assert!(cases.len() >= 40);
    for (raw, expected, writable) in &cases {
        let resolved = f
            .boundary
            .resolve(raw)
            .unwrap_or_else(|e| panic!("{raw:?} was refused: {e}"));
        let expected = if expected.is_empty() {
            root.clone()
        } else {
            root.join(expected)
        };
        assert_eq!(resolved, expected, "{raw:?}");
        assert!(resolved.starts_with(&root));
        if *writable {
            atomic_write(&f.boundary, &resolved, raw.as_bytes())
                .unwrap_or_else(|e| panic!("{raw:?}: {e}"));
            let mut file = f.boundary.open_read(&resolved).unwrap();
            let mut back = String::new();
            std::io::Read::read_to_string(&mut file, &mut back).unwrap();
            assert_eq!(&back, raw);
        }
    }
    assert!(
        f.boundary
            .is_protected(&f.boundary.resolve(".git/config").unwrap())
    );
    assert!(
        f.boundary
            .is_protected(&f.boundary.resolve(".foreman/settings.json").unwrap())
    );
    assert!(
        !f.boundary
            .is_protected(&f.boundary.resolve(".gitignore").unwrap())
    );
    // The symlink inside pointing inside was written through to its target.
    assert_eq!(
        std::fs::read_to_string(root.join("file.txt")).unwrap(),
        "self_root_link/file.txt"
    );
    assert!(
        std::fs::symlink_metadata(root.join("in_link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// Makes a device node at `path`; `None` (with the reason printed) when this machine does not
/// allow it (not root, or no `CAP_MKNOD` in a container).
fn make_device(path: &Path, kind: rustix::fs::FileType, major: u32, minor: u32) -> Option<()> {
    match rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        kind,
        rustix::fs::Mode::from_raw_mode(0o666),
        rustix::fs::makedev(major, minor),
    ) {
        Ok(()) => Some(()),
        Err(rustix::io::Errno::PERM | rustix::io::Errno::ACCESS) => {
            eprintln!(
                "SKIPPED: mknod {} is not permitted here (needs root with CAP_MKNOD)",
                path.display()
            );
            None
        }
        Err(err) => panic!("mknod {}: {err}", path.display()),
    }
}

#[tokio::test]
async fn device_files_are_refused_for_read_and_write() {
    use foreman_core::boundary::OpenError;
    use foreman_core::builtin_tools::BuiltinSession;
    use foreman_core::builtin_tools::read::{ReadParams, run_read};
    use foreman_core::builtin_tools::write::{WriteParams, run_write};

    let f = fixture();
    let root = f.boundary.root().to_path_buf();
    // The same device as /dev/null (1, 3), so even a wrongly allowed read or write is harmless.
    let chardev = root.join("chardev");
    if make_device(&chardev, rustix::fs::FileType::CharacterDevice, 1, 3).is_none() {
        return;
    }
    // A block device node (loop0); it is never opened.
    let blockdev = root.join("blockdev");
    let have_block = make_device(&blockdev, rustix::fs::FileType::BlockDevice, 7, 0).is_some();

    // The path check.
    assert_eq!(
        f.boundary.resolve("chardev").unwrap_err().reason,
        RefusalReason::SpecialFile
    );
    if have_block {
        assert_eq!(
            f.boundary.resolve("blockdev").unwrap_err().reason,
            RefusalReason::SpecialFile
        );
    }

    // Opening for read, even when handed the path without the check.
    match f.boundary.open_read(&chardev) {
        Err(OpenError::Refused(refusal)) => {
            assert_eq!(refusal.reason, RefusalReason::SpecialFile)
        }
        other => panic!("a character device was opened for read: {other:?}"),
    }

    // Writing, even when handed the path without the check: not replaced by a regular file.
    let err = atomic_write(&f.boundary, &chardev, b"data").unwrap_err();
    assert_eq!(err.code(), "PATH_NOT_IN_WORKSPACE");

    // The tools.
    let data = tempfile::tempdir().unwrap();
    let session = BuiltinSession::new(f.boundary.clone(), data.path().into());
    let read = run_read(
        &session,
        ReadParams {
            path: "chardev".into(),
            offset: None,
            limit: None,
        },
    )
    .await
    .unwrap_err();
    assert_eq!(read.code(), "PATH_NOT_IN_WORKSPACE");
    assert!(read.to_string().contains("device"), "{read}");
    let write = run_write(
        &session,
        WriteParams {
            path: "chardev".into(),
            content: "data".into(),
        },
    )
    .await
    .unwrap_err();
    assert_eq!(write.code(), "PATH_NOT_IN_WORKSPACE");

    let kind = std::fs::symlink_metadata(&chardev).unwrap().file_type();
    assert!(
        std::os::unix::fs::FileTypeExt::is_char_device(&kind),
        "the device node was replaced"
    );
}
