//! The pathname unix sockets other programs have bound on this machine, read from
//! `/proc/net/unix`: the session bus, `docker.sock`, the X server, `ssh-agent`. Landlock
//! cannot refuse a `connect` to one, so the mount namespace covers each with a stand-in.

use std::os::unix::fs::FileTypeExt;
use std::path::PathBuf;

/// The sockets bound now, as canonical paths, each once; those under `keep` (the writable
/// roots: a command may talk to its own servers) are left out.
pub(super) fn bound_sockets(keep: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(table) = std::fs::read_to_string("/proc/net/unix") else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = Vec::new();
    for path in table.lines().skip(1).filter_map(socket_path) {
        let is_socket = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket());
        if !is_socket {
            continue;
        }
        let Ok(real) = std::fs::canonicalize(path) else {
            continue;
        };
        if keep.iter().any(|root| real.starts_with(root)) || found.contains(&real) {
            continue;
        }
        found.push(real);
    }
    found
}

/// The path of one line of `/proc/net/unix` (`Num RefCount Protocol Flags Type St Inode Path`),
/// when it has an absolute one (abstract sockets start with `@`, unbound ones have none).
fn socket_path(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for _ in 0..7 {
        let end = rest.find(char::is_whitespace)?;
        rest = rest[end..].trim_start();
    }
    rest.starts_with('/').then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_column_is_read_with_its_spaces() {
        let line = "0000000000000000: 00000002 00000000 00010000 0001 01    21034 /run/a b.sock";
        assert_eq!(socket_path(line), Some("/run/a b.sock"));
        let abstract_ = "0000000000000000: 00000002 00000000 00010000 0001 01 1 @/tmp/.X11-unix/X0";
        assert_eq!(socket_path(abstract_), None);
        let unbound = "0000000000000000: 00000003 00000000 00000000 0001 03 21035";
        assert_eq!(socket_path(unbound), None);
    }

    #[test]
    fn a_socket_bound_here_is_found_and_one_under_a_kept_root_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let real = std::fs::canonicalize(&path).unwrap();
        assert!(bound_sockets(&[]).contains(&real));
        let root = std::fs::canonicalize(dir.path()).unwrap();
        assert!(!bound_sockets(&[root]).contains(&real));
    }
}
