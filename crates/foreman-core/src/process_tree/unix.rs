//! Unix: the command leads its own process group, killed with one `SIGKILL` to the group.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use rustix::io::Errno;
use rustix::process::{Pid, Signal, kill_process_group, test_kill_process};

pub(super) fn isolate(command: &mut tokio::process::Command) -> &mut tokio::process::Command {
    command.process_group(0)
}

pub(super) fn isolate_wrapped(
    wrap: &mut process_wrap::tokio::CommandWrap,
) -> &mut process_wrap::tokio::CommandWrap {
    wrap.wrap(process_wrap::tokio::ProcessGroup::leader())
}

/// The group's id, which is the leader's process id (`None` when the child had already been
/// reaped when the tree was taken).
#[derive(Debug)]
pub(super) struct Tree(Option<Pid>);

impl Tree {
    pub(super) fn of(child: &tokio::process::Child) -> Self {
        Self(
            child
                .id()
                .and_then(|id| i32::try_from(id).ok())
                .and_then(Pid::from_raw),
        )
    }

    pub(super) fn kill(&self) {
        if let Some(group) = self.0 {
            // The group may have ended already; there is nothing else to do then.
            let _ = kill_process_group(group, Signal::KILL);
        }
    }
}

pub(super) fn exit_signal(status: ExitStatus) -> Option<i32> {
    status.signal()
}

/// `kill(pid, 0)`: only "no such process" means it is gone (another user's answers `EPERM`).
pub(super) fn is_running(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return true;
    };
    !matches!(test_kill_process(pid), Err(Errno::SRCH))
}
