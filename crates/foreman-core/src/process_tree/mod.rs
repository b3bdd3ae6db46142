//! Stopping a command together with everything it started, and reading how it ended.
//!
//! The `bash` tool and the MCP discovery commands start a shell, which may start anything. A
//! timeout or a cancellation must stop all of it, grandchildren and background jobs included.
//! This module is the one platform-neutral way to do that (and to tell whether a process still
//! runs, [`is_running`]); the platform pieces are in `unix.rs` and `windows.rs`:
//!
//! - On Unix the command leads a process group of its own ([`isolate`]) and [`ProcessTree::kill`]
//!   sends `SIGKILL` to the whole group.
//! - On Windows the command is put in a Job Object as soon as it has started, with
//!   `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`; [`ProcessTree::kill`] terminates the job, and dropping
//!   the [`ProcessTree`] closes the job, which also ends everything still in it. A process the
//!   command starts in the instant before it joins the job is not in it. The Windows code is
//!   written against `windows-sys` 0.61 but is **not compiled on the machine this project is
//!   built and tested on** (it has no Windows target).

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

use std::process::ExitStatus;

/// Makes `command`, once started, the root of a tree of its own that [`ProcessTree::kill`] can
/// stop without touching Foreman. Call before spawning.
pub fn isolate(command: &mut tokio::process::Command) -> &mut tokio::process::Command {
    imp::isolate(command)
}

/// [`isolate`] for a command started through `process_wrap` (the MCP stdio servers): its tree is
/// then stopped when the wrapped child is killed or dropped.
pub fn isolate_wrapped(
    wrap: &mut process_wrap::tokio::CommandWrap,
) -> &mut process_wrap::tokio::CommandWrap {
    imp::isolate_wrapped(wrap)
}

/// A started command and everything it starts, stoppable as a whole.
#[derive(Debug)]
pub struct ProcessTree(imp::Tree);

impl ProcessTree {
    /// The tree of `child`, a command prepared with [`isolate`]. Take it right after spawning,
    /// before waiting on the child (waiting may consume it).
    pub fn of(child: &tokio::process::Child) -> Self {
        Self(imp::Tree::of(child))
    }

    /// Kills every process of the tree. Does nothing when the tree is already gone.
    pub fn kill(&self) {
        self.0.kill();
    }
}

/// Whether the process `pid` runs now (as far as can be told: one that cannot be asked about,
/// another user's say, counts as running). For telling what a dead process left behind.
pub fn is_running(pid: u32) -> bool {
    imp::is_running(pid)
}

/// The signal that ended a process, where the platform has signals (`None` on Windows, and for
/// a process that exited with a code).
pub fn exit_signal(status: ExitStatus) -> Option<i32> {
    imp::exit_signal(status)
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    #[test]
    fn a_process_runs_until_it_has_ended() {
        assert!(is_running(std::process::id()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!is_running(pid));
    }

    #[tokio::test]
    async fn kill_stops_the_command_and_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("grandchild");
        let script = format!("(sleep 0.5; touch '{}') & wait", marker.display());
        let mut command = tokio::process::Command::new("sh");
        command.arg("-c").arg(script);
        let mut child = isolate(&mut command).spawn().unwrap();
        let tree = ProcessTree::of(&child);
        tree.kill();
        let status = child.wait().await.unwrap();
        assert_eq!(exit_signal(status), Some(9));
        tokio::time::sleep(std::time::Duration::from_millis(800)).await;
        assert!(!marker.exists(), "the background job outlived the kill");
    }

    #[tokio::test]
    async fn an_exit_code_is_not_a_signal() {
        let status = tokio::process::Command::new("sh")
            .arg("-c")
            .arg("exit 3")
            .status()
            .await
            .unwrap();
        assert_eq!(exit_signal(status), None);
        assert_eq!(status.code(), Some(3));
    }
}
