//! A write killed mid-way leaves the old or the new content, never a mix. The test re-invokes its
//! own binary as a child that writes large files through the atomic writer in a loop, SIGKILLs it
//! at various moments and checks the target each time.

// Test helpers outside `#[test]` functions unwrap freely too.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use foreman_core::boundary::WorkspaceBoundary;
use foreman_core::builtin_tools::atomic_write::atomic_write;

const CHILD_ENV: &str = "ATOMIC_KILL_CHILD_DIR";
const SIZE: usize = 8 * 1024 * 1024;

/// Child mode: rewrites `target.bin` forever, alternating all-`A` and all-`B` content.
#[test]
fn atomic_kill_child_helper() {
    let Some(dir) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let boundary = WorkspaceBoundary::new(Path::new(&dir)).unwrap();
    let target = boundary.resolve("target.bin").unwrap();
    let a = vec![b'A'; SIZE];
    let b = vec![b'B'; SIZE];
    std::fs::write(Path::new(&dir).join("child.started"), "").unwrap();
    loop {
        atomic_write(&boundary, &target, &a).unwrap();
        atomic_write(&boundary, &target, &b).unwrap();
    }
}

fn check_whole(path: &Path) -> Option<u8> {
    let bytes = std::fs::read(path).unwrap();
    if bytes == b"initial" {
        return None;
    }
    assert_eq!(bytes.len(), SIZE, "partial file of {} bytes", bytes.len());
    let first = bytes[0];
    assert!(first == b'A' || first == b'B');
    assert!(bytes.iter().all(|&x| x == first), "mixed content");
    Some(first)
}

/// The helper test's name in this binary (its module path without the crate).
fn child_test_name() -> String {
    let module = module_path!();
    let within = module.split_once("::").map_or(module, |(_, rest)| rest);
    format!("{within}::atomic_kill_child_helper")
}

/// Starts a writing child and waits until it has begun its loop.
fn spawn_child(exe: &Path, dir: &Path) -> std::process::Child {
    let started = dir.join("child.started");
    let _ = std::fs::remove_file(&started);
    let child = Command::new(exe)
        .args([
            child_test_name().as_str(),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !started.exists() {
        assert!(Instant::now() < deadline, "the child never started");
        std::thread::sleep(Duration::from_millis(1));
    }
    child
}

/// Removes the temporary files a killed write left behind and says how many there were: each
/// one is a kill that landed between the temporary file's creation and its rename.
fn sweep_temporaries(dir: &Path) -> usize {
    let mut found = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(".foreman-tmp-")
        {
            std::fs::remove_file(entry.path()).unwrap();
            found += 1;
        }
    }
    found
}

#[test]
fn killed_write_leaves_old_or_new_content() {
    let exe = std::env::current_exe().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.bin");
    std::fs::write(&target, "initial").unwrap();

    // A kill before the first write completes must leave the initial content.
    let mut child = spawn_child(&exe, dir.path());
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let _ = check_whole(&target);
    sweep_temporaries(dir.path());

    // Time one whole write on this machine (it varies a lot with the disk and the load), so the
    // kills below are spread over the writes instead of over a fixed number of milliseconds.
    let mut child = spawn_child(&exe, dir.path());
    let began = Instant::now();
    let deadline = began + Duration::from_secs(120);
    while std::fs::metadata(&target).map(|m| m.len()).unwrap_or(0) != SIZE as u64 {
        assert!(
            Instant::now() < deadline,
            "the child never finished a write"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let write_time = began.elapsed().max(Duration::from_millis(4));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(check_whole(&target).is_some(), "a finished write was lost");
    sweep_temporaries(dir.path());

    // Kill at moments spread over about three writes, until enough kills have landed mid-write.
    let mut mid_write = 0;
    let mut kills = 0;
    while mid_write < 6 {
        assert!(
            kills < 80,
            "only {mid_write} of {kills} kills landed inside a write (one write took {write_time:?})"
        );
        let mut child = spawn_child(&exe, dir.path());
        std::thread::sleep(write_time * (kills % 24) / 8);
        child.kill().unwrap();
        child.wait().unwrap();
        kills += 1;
        // Once a write has completed, every later kill must leave one whole version.
        assert!(
            check_whole(&target).is_some(),
            "kill {kills}: the content was lost"
        );
        mid_write += sweep_temporaries(dir.path());
    }
}
