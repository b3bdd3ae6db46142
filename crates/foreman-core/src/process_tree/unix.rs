//! Unix other than Linux: the command leads its own process group, killed with one `SIGKILL` to
//! the group, when asked and when the tree is dropped. What leaves the group (`setsid`) is not
//! collected, and leftovers are not named. Not compiled on the machine this project is built and
//! tested on (Linux has the keeper instead).

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::ExitStatus;

use rustix::process::{Pid, Signal, kill_process_group};

use super::outcome::{CommandExit, Ended, Leftovers};

#[derive(Debug)]
pub(super) struct Prepared(Leftovers);

pub(super) fn prepare(
    command: &mut std::process::Command,
    leftovers: Leftovers,
) -> std::io::Result<Prepared> {
    command.process_group(0);
    Ok(Prepared(leftovers))
}

pub(super) fn wrap(
    wrap: &mut process_wrap::tokio::CommandWrap,
    _prepared: Prepared,
) -> &mut process_wrap::tokio::CommandWrap {
    wrap.wrap(process_wrap::tokio::ProcessGroup::leader())
        .wrap(process_wrap::tokio::KillOnDrop)
}

/// The group's id, which is the leader's process id (`None` when the child had already been
/// reaped when the tree was taken).
#[derive(Debug)]
pub(super) struct Tree(Option<Pid>);

impl Tree {
    pub(super) fn of(child: &tokio::process::Child, _prepared: Prepared) -> Self {
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

    pub(super) fn ended(&self) -> Ended {
        Ended::default()
    }

    /// The group's leader is the command itself: nothing else to wait for.
    pub(super) async fn command_ended(&self) -> Option<CommandExit> {
        None
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        self.kill();
    }
}

pub(super) fn exit_signal(status: ExitStatus) -> Option<i32> {
    status.signal()
}
