//! A write killed mid-way leaves the old or the new content, never a mix. The test re-invokes its
//! own binary as a child that writes large files through the atomic writer in a loop, SIGKILLs it
//! at various moments and checks the target each time.

// Test helpers outside `#[test]` functions unwrap freely too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

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

#[test]
fn killed_write_leaves_old_or_new_content() {
    let exe = std::env::current_exe().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.bin");
    std::fs::write(&target, "initial").unwrap();
    let mut saw_new = 0;
    for delay_ms in [0u64, 3, 7, 15, 25, 40, 60, 90, 130, 180, 250, 350] {
        let mut child = Command::new(&exe)
            .args([
                "atomic_kill_child_helper",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the child is writing, then let it run for `delay_ms`.
        let started = dir.path().join("child.started");
        for _ in 0..5000 {
            if started.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let _ = std::fs::remove_file(&started);
        if check_whole(&target).is_some() {
            saw_new += 1;
        }
    }
    assert!(
        saw_new >= 6,
        "the child wrote too rarely to exercise the test ({saw_new})"
    );
}
