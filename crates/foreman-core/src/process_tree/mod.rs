//! A command together with everything it starts: stopped as a whole, and nothing of it left
//! running once it has ended, and reading how it ended.
//!
//! The `bash` tool, hooks, a task's setup, check and run commands, MCP discovery commands and
//! stdio servers start a shell or a program, which may start anything: background jobs,
//! `setsid`/`nohup` daemons, double forks. Everything they start belongs to the call (or the
//! hook, or the server) and ends with it. This module is the one platform-neutral way to do
//! that; the platform pieces are in their own files:
//!
//! - On Linux a **keeper** process stands between Foreman and the command (`keeper.rs`,
//!   `linux.rs`). It is a child subreaper, so whatever the command's processes leave behind
//!   becomes its child; when the command ends it kills every one of them ([`Leftovers::Stop`]),
//!   or keeps them until told ([`Leftovers::Keep`], a hook the person allows to keep children),
//!   and names what it ended ([`ProcessTree::ended`]). Foreman holds the other end of a socket
//!   pair: a kill, dropping the [`ProcessTree`], or Foreman exiting in any way (killed
//!   included) makes the keeper end everything. The command dies with its keeper
//!   (`PR_SET_PDEATHSIG`), and a confined command cannot signal it (the keeper stays outside
//!   the sandbox's Landlock domain). Not covered: what a command asks another program to start
//!   (`systemd-run`, `at`, a Docker daemon's containers), and a keeper killed by `SIGKILL` from
//!   outside (its command then dies, but what it left may not).
//! - On other Unix systems the command leads a process group of its own, killed as a whole;
//!   what leaves the group (`setsid`) is not collected.
//! - On Windows the command is put in a Job Object as soon as it has started, with
//!   `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`; [`ProcessTree::kill`] terminates the job, and dropping
//!   the [`ProcessTree`] closes the job, which also ends everything still in it. A process the
//!   command starts in the instant before it joins the job is not in it. The Windows code is
//!   written against `windows-sys` 0.61 but is **not compiled on the machine this project is
//!   built and tested on** (it has no Windows target).

#[cfg(target_os = "linux")]
mod keeper;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as imp;
#[cfg(all(unix, not(target_os = "linux")))]
mod unix;
#[cfg(all(unix, not(target_os = "linux")))]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

mod outcome;

use std::process::ExitStatus;

pub use self::outcome::{CommandExit, Ended, Leftovers};

/// A command prepared to start as the root of a tree of its own (see [`prepare`]).
#[derive(Debug)]
pub struct Prepared(imp::Prepared);

/// Prepares `command` so that, once started, it and everything it starts form a tree that
/// [`ProcessTree`] ends, and that ends by itself as `leftovers` says. Call it before anything
/// else prepares the command (the sandbox's [`crate::sandbox::confine`]): the keeper must start
/// before the command confines itself.
pub fn prepare(
    command: &mut std::process::Command,
    leftovers: Leftovers,
) -> std::io::Result<Prepared> {
    imp::prepare(command, leftovers).map(Prepared)
}

/// [`prepare`]d and started through `process_wrap` (the MCP stdio servers): the tree is then
/// ended when the wrapped child is killed or dropped.
pub fn wrap(
    wrap: &mut process_wrap::tokio::CommandWrap,
    prepared: Prepared,
) -> &mut process_wrap::tokio::CommandWrap {
    imp::wrap(wrap, prepared.0)
}

/// A started command and everything it starts. Dropping it ends whatever of it still runs.
#[derive(Debug)]
pub struct ProcessTree(imp::Tree);

impl ProcessTree {
    /// The tree of `child`, started from a command [`prepare`]d with `prepared`. Take it right
    /// after spawning, before waiting on the child.
    pub fn of(child: &tokio::process::Child, prepared: Prepared) -> Self {
        Self(imp::Tree::of(child, prepared.0))
    }

    /// Kills every process of the tree. Does nothing when the tree is already gone.
    pub fn kill(&self) {
        self.0.kill();
    }

    /// What was ended because it was still running when the command ended or was killed. Ask
    /// once the child has been waited for.
    pub fn ended(&self) -> Ended {
        self.0.ended()
    }

    /// Waits until the command itself has ended and says how; for [`Leftovers::Keep`], whose
    /// child (the keeper) goes on until the tree is dropped. `None` when it cannot be told.
    pub async fn command_ended(&self) -> Option<CommandExit> {
        self.0.command_ended().await
    }
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
    use std::time::Duration;

    fn spawn(script: &str, leftovers: Leftovers) -> (tokio::process::Child, ProcessTree) {
        let mut std = std::process::Command::new("sh");
        std.arg("-c").arg(script);
        let prepared = prepare(&mut std, leftovers).unwrap();
        let child = tokio::process::Command::from(std).spawn().unwrap();
        let tree = ProcessTree::of(&child, prepared);
        (child, tree)
    }

    /// Whether a process whose command line holds `marker` runs (zombies aside).
    #[cfg(target_os = "linux")]
    fn running(marker: &str) -> bool {
        std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
            let dir = entry.path();
            let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
            let zombie = stat
                .rsplit_once(") ")
                .is_some_and(|(_, r)| r.starts_with('Z'));
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            !zombie && cmdline.contains(marker)
        })
    }

    #[tokio::test]
    async fn kill_stops_the_command_and_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("grandchild");
        let script = format!("(sleep 0.5; touch '{}') & wait", marker.display());
        let (mut child, tree) = spawn(&script, Leftovers::Stop);
        tree.kill();
        let status = child.wait().await.unwrap();
        assert_eq!(exit_signal(status), Some(9));
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert!(!marker.exists(), "the background job outlived the kill");
    }

    #[tokio::test]
    async fn an_exit_code_is_not_a_signal() {
        let (mut child, _tree) = spawn("exit 3", Leftovers::Stop);
        let status = child.wait().await.unwrap();
        assert_eq!(exit_signal(status), None);
        assert_eq!(status.code(), Some(3));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn daemons_that_left_the_group_end_with_the_command_and_are_named() {
        let script = "setsid sh -c 'sleep 31.01' & \
                      ( ( sleep 31.02 & ) & ) ; \
                      nohup sleep 31.03 >/dev/null 2>&1 & \
                      setsid -f sleep 31.04; sleep 0.2; exit 4";
        let (mut child, tree) = spawn(script, Leftovers::Stop);
        let status = child.wait().await.unwrap();
        assert_eq!(status.code(), Some(4));
        assert!(!running("sleep 31.0"), "the check itself is blind");
        for marker in ["sleep 31.01", "sleep 31.02", "sleep 31.03", "sleep 31.04"] {
            assert!(!running(marker), "{marker} outlived its command");
        }
        let ended = tree.ended();
        assert!(ended.count() >= 4, "{ended:?}");
        assert!(ended.names.iter().any(|n| n == "sleep"), "{ended:?}");
        assert!(
            ended
                .describe()
                .unwrap()
                .contains("left running were ended")
        );
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_command_that_leaves_nothing_reports_nothing() {
        let (mut child, tree) = spawn("echo hi; sleep 0.05 & wait", Leftovers::Stop);
        assert!(child.wait().await.unwrap().success());
        assert_eq!(tree.ended(), Ended::default());
        assert_eq!(tree.ended().describe(), None);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn kept_leftovers_run_until_the_tree_is_dropped() {
        let (mut child, tree) = spawn("setsid sleep 31.11 & exit 0", Leftovers::Keep);
        let exit = tokio::time::timeout(Duration::from_secs(10), tree.command_ended())
            .await
            .unwrap();
        assert_eq!(exit, Some(CommandExit::Code(0)));
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(running("sleep 31.11"), "a kept child was ended early");
        drop(tree);
        let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(status.code(), Some(0));
        assert!(!running("sleep 31.11"), "a kept child outlived its tree");
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_signal_to_the_keeper_reaches_the_command() {
        let (mut child, _tree) = spawn("trap 'exit 7' TERM; sleep 30 & wait", Leftovers::Stop);
        tokio::time::sleep(Duration::from_millis(300)).await;
        let pid = child.id().unwrap() as i32;
        // SAFETY: a plain system call.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(status.code(), Some(7));
    }
}
