//! The keeper (Linux): the process between Foreman and a command that collects everything the
//! command starts. Runs in the child `std` forked, before any other `pre_exec` step (the
//! sandbox's), so it stays outside the command's sandbox:
//!
//! 1. it makes itself a child subreaper (`PR_SET_CHILD_SUBREAPER`), so whatever the command's
//!    processes leave behind when they end (`setsid`, `nohup`, a double fork, `(…) &`) becomes
//!    its child instead of init's;
//! 2. it forks the command, which asks to be killed if the keeper dies (`PR_SET_PDEATHSIG`) and
//!    goes on to the other `pre_exec` steps and `exec`;
//! 3. it waits for the command, for a signal (`SIGTERM`, `SIGINT`, `SIGHUP`, `SIGQUIT` are passed
//!    on to the command) and for Foreman, over its end of a socket pair: a `k` byte, or the
//!    socket's end (Foreman dropped the tree, or exited or was killed), means "end it all now";
//! 4. when the command has ended (at once, or with [`Leftovers::Keep`](super::Leftovers) when
//!    Foreman says so), it kills every process it collected, again and again until none is
//!    left, tells Foreman which ones it ended, and exits the way the command did.
//!
//! Everything here runs between `fork` and `exec` of a possibly multi-threaded parent, or in a
//! process that never `exec`s: only system calls on stack buffers, no allocation, no locks.

use std::io;

use libc::{c_int, pid_t};

/// At most this many ended processes are named to Foreman (the rest are counted).
const NAMED_MAX: usize = 32;
/// Processes remembered so one is counted once.
const SEEN_MAX: usize = 256;
/// The signals the keeper handles itself.
const HANDLED: [c_int; 5] = [
    libc::SIGCHLD,
    libc::SIGTERM,
    libc::SIGINT,
    libc::SIGHUP,
    libc::SIGQUIT,
];

fn errno() -> c_int {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// In the child `std` forked: becomes the keeper and forks the command. Returns only in the
/// command's process (which then goes on to `exec`); the keeper never returns.
///
/// # Safety
/// Call only between `fork` and `exec`; `keeper_fd` is the keeper's end of the socket pair and
/// `engine_fd` Foreman's.
pub(super) unsafe fn start(keeper_fd: c_int, engine_fd: c_int, keep: bool) -> io::Result<()> {
    // SAFETY: plain system calls on stack data.
    unsafe {
        let me = libc::getpid();
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut handled: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut handled);
        for signal in HANDLED {
            libc::sigaddset(&mut handled, signal);
        }
        let mut before: libc::sigset_t = std::mem::zeroed();
        // Blocked before the fork, so the command's end cannot come before the keeper listens.
        if libc::sigprocmask(libc::SIG_BLOCK, &handled, &mut before) != 0 {
            return Err(io::Error::last_os_error());
        }
        let pid = libc::fork();
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            libc::sigprocmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() != me {
                libc::_exit(137); // the keeper is already gone
            }
            libc::close(keeper_fd);
            libc::close(engine_fd);
            return Ok(());
        }
        keep_watch(pid, keeper_fd, keep, &handled)
    }
}

/// The keeper's life: waits, ends everything, reports, exits as the command did.
unsafe fn keep_watch(main: pid_t, fd: c_int, keep: bool, handled: &libc::sigset_t) -> ! {
    // SAFETY: plain system calls on stack data.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        quiet_stdio();
        close_all_but(fd);
        let signals = libc::signalfd(-1, handled, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK);
        let mut status: Option<c_int> = None;
        let mut told = false;
        loop {
            let mut fds = [
                libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: signals,
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // Without a signalfd, look every 50 ms.
            let (count, timeout) = if signals >= 0 { (2, -1) } else { (1, 50) };
            let ready = libc::poll(fds.as_mut_ptr(), count, timeout);
            if ready < 0 && errno() != libc::EINTR {
                break;
            }
            let mut stop = false;
            if signals >= 0 && fds[1].revents & libc::POLLIN != 0 {
                stop |= read_signals(signals, main, status.is_none());
            }
            reap(main, &mut status);
            if fds[0].revents != 0 {
                let mut buf = [0u8; 16];
                let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
                let gone = n == 0 || (n < 0 && !matches!(errno(), libc::EINTR | libc::EAGAIN));
                stop |= gone || buf[..n.max(0) as usize].contains(&b'k');
            }
            if let Some(code) = status
                && !told
            {
                tell_status(fd, code);
                told = true;
                if !keep {
                    break;
                }
            }
            if stop {
                break;
            }
        }
        end_all(main, fd, &mut status);
        if let Some(code) = status
            && !told
        {
            tell_status(fd, code);
        }
        write_all(fd, b"done\n");
        exit_as(status)
    }
}

/// Drains the signalfd. A stop signal while the command runs is passed on to it; one after it
/// ended (with its leftovers kept) means "end them"; whether that came.
unsafe fn read_signals(signals: c_int, main: pid_t, main_runs: bool) -> bool {
    let mut stop = false;
    // SAFETY: reads into a zeroed struct of the size the kernel writes.
    unsafe {
        loop {
            let mut info: libc::signalfd_siginfo = std::mem::zeroed();
            let size = std::mem::size_of::<libc::signalfd_siginfo>();
            let n = libc::read(signals, (&raw mut info).cast(), size);
            if n != size as isize {
                break;
            }
            let signo = info.ssi_signo as c_int;
            match (signo, main_runs) {
                (libc::SIGCHLD, _) => {}
                (_, true) => {
                    libc::kill(main, signo);
                }
                (_, false) => stop = true,
            }
        }
    }
    stop
}

/// Reaps whatever has ended; notes the command's own status.
unsafe fn reap(main: pid_t, status: &mut Option<c_int>) {
    loop {
        let mut code: c_int = 0;
        // SAFETY: a plain system call.
        let pid = unsafe { libc::waitpid(-1, &mut code, libc::WNOHANG) };
        if pid <= 0 {
            break;
        }
        if pid == main {
            *status = Some(code);
        }
    }
}

/// Kills every process the keeper has (the command too, when it still runs), until none is
/// left; names the ones that were still running to Foreman.
unsafe fn end_all(main: pid_t, fd: c_int, status: &mut Option<c_int>) {
    let mut seen = [0 as pid_t; SEEN_MAX];
    let mut seen_count = 0usize;
    let mut ended = 0usize;
    // SAFETY: plain system calls on stack data.
    unsafe {
        if status.is_none() {
            libc::kill(main, libc::SIGKILL);
        }
        loop {
            let mut kids = [0 as pid_t; 512];
            let count = children(&mut kids);
            for &pid in &kids[..count] {
                if pid == main {
                    libc::kill(pid, libc::SIGKILL);
                    continue;
                }
                let mut name = [0u8; 64];
                let Some((state, len)) = stat_of(pid, &mut name) else {
                    continue;
                };
                if state == b'Z' || state == b'X' {
                    continue; // it ended on its own; reaped below
                }
                libc::kill(pid, libc::SIGKILL);
                if seen[..seen_count].contains(&pid) {
                    continue;
                }
                if seen_count < SEEN_MAX {
                    seen[seen_count] = pid;
                    seen_count += 1;
                }
                ended += 1;
                if ended <= NAMED_MAX {
                    let mut line = [0u8; 128];
                    let mut at = put(&mut line, 0, b"ended ");
                    at = put_number(&mut line, at, pid as u64);
                    at = put(&mut line, at, b" ");
                    at = put(&mut line, at, &name[..len]);
                    at = put(&mut line, at, b"\n");
                    write_all(fd, &line[..at]);
                }
            }
            let mut code: c_int = 0;
            let pid = libc::waitpid(-1, &mut code, 0);
            if pid < 0 {
                if errno() == libc::EINTR {
                    continue;
                }
                break; // ECHILD: nothing is left
            }
            if pid == main {
                *status = Some(code);
            }
        }
    }
    if ended > NAMED_MAX {
        let mut line = [0u8; 64];
        let mut at = put(&mut line, 0, b"more ");
        at = put_number(&mut line, at, (ended - NAMED_MAX) as u64);
        at = put(&mut line, at, b"\n");
        // SAFETY: a plain system call.
        unsafe { write_all(fd, &line[..at]) };
    }
}

/// The keeper's children, from `/proc/thread-self/children` (or, where the kernel has no such
/// file, by reading every process's parent in `/proc`). How many were written to `out`.
unsafe fn children(out: &mut [pid_t]) -> usize {
    // SAFETY: plain system calls on stack data.
    unsafe {
        let fd = libc::open(
            c"/proc/thread-self/children".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return children_by_scan(out);
        }
        let mut buf = [0u8; 8192];
        let mut len = 0usize;
        while len < buf.len() {
            let n = libc::read(fd, buf[len..].as_mut_ptr().cast(), buf.len() - len);
            if n <= 0 {
                break;
            }
            len += n as usize;
        }
        libc::close(fd);
        parse_numbers(&buf[..len], out)
    }
}

/// The same by scanning `/proc`.
unsafe fn children_by_scan(out: &mut [pid_t]) -> usize {
    // SAFETY: plain system calls on stack data; `getdents64` fills `buf` with records whose
    // lengths it gives.
    unsafe {
        let me = libc::getpid();
        let dir = libc::open(
            c"/proc".as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        );
        if dir < 0 {
            return 0;
        }
        let mut count = 0usize;
        let mut buf = [0u8; 4096];
        'read: loop {
            let n = libc::syscall(libc::SYS_getdents64, dir, buf.as_mut_ptr(), buf.len());
            if n <= 0 {
                break;
            }
            let mut at = 0usize;
            while at + 19 < n as usize {
                let reclen = u16::from_ne_bytes([buf[at + 16], buf[at + 17]]) as usize;
                if reclen == 0 {
                    break;
                }
                let name = &buf[at + 19..(at + reclen).min(n as usize)];
                let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
                at += reclen;
                let Some(pid) = number(name) else { continue };
                if parent_of(pid as pid_t) == Some(me) {
                    if count == out.len() {
                        break 'read;
                    }
                    out[count] = pid as pid_t;
                    count += 1;
                }
            }
        }
        libc::close(dir);
        count
    }
}

/// Reads `/proc/PID/stat`: the process's state and its name (written to `name`, its length).
unsafe fn stat_of(pid: pid_t, name: &mut [u8]) -> Option<(u8, usize)> {
    let mut buf = [0u8; 512];
    // SAFETY: plain system calls on stack data.
    let len = unsafe { read_stat(pid, &mut buf)? };
    let text = &buf[..len];
    let open = text.iter().position(|&b| b == b'(')?;
    let close = text.iter().rposition(|&b| b == b')')?;
    let comm = text.get(open + 1..close)?;
    let mut n = 0;
    for &b in comm.iter().take(name.len()) {
        name[n] = if b.is_ascii_graphic() { b } else { b'?' };
        n += 1;
    }
    let state = *text.get(close + 2)?;
    Some((state, n))
}

/// The parent of `pid`, from `/proc/PID/stat`.
unsafe fn parent_of(pid: pid_t) -> Option<pid_t> {
    let mut buf = [0u8; 512];
    // SAFETY: plain system calls on stack data.
    let len = unsafe { read_stat(pid, &mut buf)? };
    let text = &buf[..len];
    let close = text.iter().rposition(|&b| b == b')')?;
    // ") S PPID ..."
    let rest = text.get(close + 4..)?;
    let end = rest.iter().position(|&b| b == b' ')?;
    number(&rest[..end]).map(|p| p as pid_t)
}

unsafe fn read_stat(pid: pid_t, buf: &mut [u8]) -> Option<usize> {
    let mut path = [0u8; 40];
    let mut at = put(&mut path, 0, b"/proc/");
    at = put_number(&mut path, at, pid as u64);
    put(&mut path, at, b"/stat\0");
    // SAFETY: `path` is NUL-terminated; plain system calls on stack data.
    unsafe {
        let fd = libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return None;
        }
        let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
        libc::close(fd);
        (n > 0).then_some(n as usize)
    }
}

/// The command's status, told to Foreman: `exit N` or `signal N`.
unsafe fn tell_status(fd: c_int, status: c_int) {
    let mut line = [0u8; 32];
    let mut at = if libc::WIFSIGNALED(status) {
        let at = put(&mut line, 0, b"signal ");
        put_number(&mut line, at, libc::WTERMSIG(status) as u64)
    } else {
        let at = put(&mut line, 0, b"exit ");
        put_number(&mut line, at, libc::WEXITSTATUS(status) as u64)
    };
    at = put(&mut line, at, b"\n");
    // SAFETY: a plain system call.
    unsafe { write_all(fd, &line[..at]) };
}

/// Exits with the command's code, or dies of its signal (without a core file).
unsafe fn exit_as(status: Option<c_int>) -> ! {
    // SAFETY: plain system calls.
    unsafe {
        match status {
            Some(code) if libc::WIFEXITED(code) => libc::_exit(libc::WEXITSTATUS(code)),
            Some(code) if libc::WIFSIGNALED(code) => {
                let signal = libc::WTERMSIG(code);
                let none = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                libc::setrlimit(libc::RLIMIT_CORE, &none);
                libc::signal(signal, libc::SIG_DFL);
                let mut only: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut only);
                libc::sigaddset(&mut only, signal);
                libc::sigprocmask(libc::SIG_UNBLOCK, &only, std::ptr::null_mut());
                libc::kill(libc::getpid(), signal);
                libc::_exit(128 + signal)
            }
            _ => libc::_exit(125),
        }
    }
}

/// Points the keeper's standard streams at `/dev/null`: the command has its own copies, and a
/// reader of the command's output must see its end when the command's processes are gone.
unsafe fn quiet_stdio() {
    // SAFETY: plain system calls.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null < 0 {
            for fd in 0..3 {
                libc::close(fd);
            }
            return;
        }
        for fd in 0..3 {
            if null != fd {
                libc::dup2(null, fd);
            }
        }
        if null > 2 {
            libc::close(null);
        }
    }
}

/// Closes every descriptor above the standard ones but `keep` (Foreman's pipes, the other
/// commands' sockets, the pipe `std` reads the `exec` error from).
unsafe fn close_all_but(keep: c_int) {
    // SAFETY: plain system calls.
    unsafe {
        let ranges = [(3, keep - 1), (keep + 1, c_int::MAX)];
        for (first, last) in ranges {
            if first > last {
                continue;
            }
            let done = libc::syscall(libc::SYS_close_range, first as u32, last as u32, 0u32);
            if done != 0 {
                for fd in first..last.min(4096) {
                    libc::close(fd);
                }
            }
        }
    }
}

unsafe fn write_all(fd: c_int, bytes: &[u8]) {
    let mut at = 0;
    while at < bytes.len() {
        // SAFETY: a plain system call on a valid buffer.
        let n = unsafe { libc::write(fd, bytes[at..].as_ptr().cast(), bytes.len() - at) };
        if n < 0 && errno() == libc::EINTR {
            continue;
        }
        if n <= 0 {
            return;
        }
        at += n as usize;
    }
}

fn put(buf: &mut [u8], at: usize, bytes: &[u8]) -> usize {
    let room = buf.len().saturating_sub(at);
    let n = bytes.len().min(room);
    buf[at..at + n].copy_from_slice(&bytes[..n]);
    at + n
}

fn put_number(buf: &mut [u8], at: usize, mut value: u64) -> usize {
    let mut digits = [0u8; 20];
    let mut n = 0;
    loop {
        digits[n] = b'0' + (value % 10) as u8;
        n += 1;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    let mut at = at;
    for i in (0..n).rev() {
        at = put(buf, at, &digits[i..=i]);
    }
    at
}

fn number(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() || bytes.len() > 19 {
        return None;
    }
    bytes.iter().try_fold(0u64, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
    })
}

/// The space-separated numbers of `text`, into `out`; how many.
fn parse_numbers(text: &[u8], out: &mut [pid_t]) -> usize {
    let mut count = 0;
    for word in text.split(|b| b.is_ascii_whitespace()) {
        if count == out.len() {
            break;
        }
        if let Some(n) = number(word) {
            out[count] = n as pid_t;
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_and_read_without_allocating() {
        let mut buf = [0u8; 16];
        let at = put_number(&mut buf, 0, 40_213);
        assert_eq!(&buf[..at], b"40213");
        assert_eq!(put_number(&mut buf, 0, 0), 1);
        let mut out = [0 as pid_t; 4];
        assert_eq!(parse_numbers(b"12 7 999 \n", &mut out), 3);
        assert_eq!(&out[..3], &[12, 7, 999]);
        assert_eq!(number(b"12a"), None);
    }
}
