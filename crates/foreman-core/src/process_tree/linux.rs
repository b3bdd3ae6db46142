//! Linux: a keeper process between Foreman and the command (`keeper.rs`) collects everything
//! the command starts and ends it; Foreman holds the other end of a socket pair, so the keeper
//! ends it all when Foreman asks (a `k` byte), drops the tree, or exits in any way.

use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::ExitStatus;
use std::sync::Mutex;

use super::outcome::{CommandExit, Ended, Leftovers};

/// A command prepared with its keeper: Foreman's end of the socket pair and, until the command
/// has started, the keeper's.
#[derive(Debug)]
pub(super) struct Prepared {
    engine: UnixStream,
    keeper: OwnedFd,
}

pub(super) fn prepare(
    command: &mut std::process::Command,
    leftovers: Leftovers,
) -> io::Result<Prepared> {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid out-array of two descriptors.
    let made = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if made != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just made and nothing else owns them.
    let (engine, keeper) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let engine = UnixStream::from(engine);
    engine.set_nonblocking(true)?;
    let (keeper_fd, engine_fd) = (keeper.as_raw_fd(), engine.as_raw_fd());
    let keep = leftovers == Leftovers::Keep;
    command.process_group(0);
    // SAFETY: `start` makes only system calls on stack data (see keeper.rs); both descriptors
    // stay open in this process until the command has started (`Prepared` holds them).
    unsafe {
        command.pre_exec(move || super::keeper::start(keeper_fd, engine_fd, keep));
    }
    Ok(Prepared { engine, keeper })
}

/// Foreman's end of a started command's keeper, and what the keeper said so far.
#[derive(Debug)]
pub(super) struct Tree {
    engine: UnixStream,
    heard: Mutex<Vec<u8>>,
}

impl Tree {
    pub(super) fn of(_child: &tokio::process::Child, prepared: Prepared) -> Self {
        Self::started(prepared)
    }

    /// The tree of a command that has started (the keeper's end is closed here, so only the
    /// keeper holds it).
    pub(super) fn started(prepared: Prepared) -> Self {
        drop(prepared.keeper);
        Self {
            engine: prepared.engine,
            heard: Mutex::new(Vec::new()),
        }
    }

    pub(super) fn kill(&self) {
        // SAFETY: a one-byte buffer that lives across the call; no SIGPIPE when the keeper is
        // gone (then there is nothing left to kill).
        unsafe {
            libc::send(
                self.engine.as_raw_fd(),
                b"k".as_ptr().cast(),
                1,
                libc::MSG_NOSIGNAL | libc::MSG_DONTWAIT,
            );
        }
    }

    /// Reads what the keeper has written since the last look.
    fn listen(&self) -> Vec<u8> {
        let mut heard = self.heard.lock().unwrap_or_else(|p| p.into_inner());
        let mut buf = [0u8; 4096];
        let mut stream = &self.engine;
        while let Ok(n) = stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            heard.extend_from_slice(&buf[..n]);
        }
        heard.clone()
    }

    pub(super) fn ended(&self) -> Ended {
        let heard = self.listen();
        let mut ended = Ended::default();
        for line in String::from_utf8_lossy(&heard).lines() {
            if let Some(rest) = line.strip_prefix("ended ") {
                let name = rest.split_once(' ').map_or("", |(_, name)| name);
                ended.names.push(name.to_owned());
            } else if let Some(more) = line.strip_prefix("more ") {
                ended.more += more.trim().parse::<usize>().unwrap_or(0);
            }
        }
        ended
    }

    pub(super) async fn command_ended(&self) -> Option<CommandExit> {
        let stream = tokio::net::UnixStream::from_std(self.engine.try_clone().ok()?).ok()?;
        loop {
            if let Some(exit) = status_in(&self.listen()) {
                return Some(exit);
            }
            stream.readable().await.ok()?;
            let mut buf = [0u8; 4096];
            match stream.try_read(&mut buf) {
                Ok(0) => return status_in(&self.listen()),
                Ok(n) => {
                    let mut heard = self.heard.lock().unwrap_or_else(|p| p.into_inner());
                    heard.extend_from_slice(&buf[..n]);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return status_in(&self.listen()),
            }
        }
    }
}

/// The command's own end, once the keeper has told it.
fn status_in(heard: &[u8]) -> Option<CommandExit> {
    String::from_utf8_lossy(heard).lines().find_map(|line| {
        if let Some(code) = line.strip_prefix("exit ") {
            return code.trim().parse().ok().map(CommandExit::Code);
        }
        line.strip_prefix("signal ")
            .and_then(|s| s.trim().parse().ok())
            .map(CommandExit::Signal)
    })
}

pub(super) fn exit_signal(status: ExitStatus) -> Option<i32> {
    status.signal()
}

/// An MCP stdio server's child, stopped through its keeper (so a stop or a drop ends what it
/// started, not only the keeper).
#[derive(Debug)]
struct KeptChild {
    inner: Box<dyn process_wrap::tokio::ChildWrapper>,
    tree: Tree,
}

impl process_wrap::tokio::ChildWrapper for KeptChild {
    fn inner(&self) -> &dyn process_wrap::tokio::ChildWrapper {
        self.inner.as_ref()
    }
    fn inner_mut(&mut self) -> &mut dyn process_wrap::tokio::ChildWrapper {
        self.inner.as_mut()
    }
    fn into_inner(self: Box<Self>) -> Box<dyn process_wrap::tokio::ChildWrapper> {
        self.inner
    }
    fn start_kill(&mut self) -> io::Result<()> {
        self.tree.kill();
        Ok(())
    }
}

/// Puts the keeper's tree on the wrapped child when it starts.
#[derive(Debug)]
struct Kept(Mutex<Option<Prepared>>);

impl process_wrap::tokio::CommandWrapper for Kept {
    fn wrap_child(
        &mut self,
        child: Box<dyn process_wrap::tokio::ChildWrapper>,
        _core: &process_wrap::tokio::CommandWrap,
    ) -> io::Result<Box<dyn process_wrap::tokio::ChildWrapper>> {
        let prepared = self
            .0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .ok_or_else(|| io::Error::other("the command was started twice"))?;
        Ok(Box::new(KeptChild {
            inner: child,
            tree: Tree::started(prepared),
        }))
    }
}

pub(super) fn wrap(
    wrap: &mut process_wrap::tokio::CommandWrap,
    prepared: Prepared,
) -> &mut process_wrap::tokio::CommandWrap {
    wrap.wrap(Kept(Mutex::new(Some(prepared))))
}
