//! Resolving a path the way the kernel would, component by component, following symbolic links
//! as long as the components exist and processing the non-existent tail lexically.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Most symbolic links followed while resolving one path (Linux uses 40 too).
const MAX_SYMLINK_HOPS: usize = 40;

/// Outcome of [`resolve_physical`].
#[derive(Debug)]
pub(crate) enum Resolved {
    /// The fully resolved absolute path (no symlinks among its existing components).
    Path(PathBuf),
    /// More than [`MAX_SYMLINK_HOPS`] links were followed; carries how far it got.
    Loop(PathBuf),
}

/// Resolves the absolute path `path`: every existing component that is a symbolic link is
/// replaced by its target (recursively), `..` pops the already-resolved prefix (which is exact
/// because that prefix contains no links), and once a component does not exist the rest is
/// appended lexically (`..` there pops lexically, which is safe because nothing beyond that point
/// exists to be a link).
pub(crate) fn resolve_physical(path: &Path) -> io::Result<Resolved> {
    let mut pending: VecDeque<OsString> = VecDeque::new();
    push_components_front(&mut pending, path);
    let mut out = PathBuf::from("/");
    let mut exists = true;
    let mut hops = 0usize;
    while let Some(part) = pending.pop_front() {
        if part == ".." {
            out.pop();
            continue;
        }
        let candidate = out.join(&part);
        if !exists {
            out = candidate;
            continue;
        }
        match std::fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() => {
                hops += 1;
                if hops > MAX_SYMLINK_HOPS {
                    return Ok(Resolved::Loop(candidate));
                }
                let target = std::fs::read_link(&candidate)?;
                if target.is_absolute() {
                    out = PathBuf::from("/");
                }
                push_components_front(&mut pending, &target);
            }
            Ok(_) => out = candidate,
            Err(err)
                if err.kind() == io::ErrorKind::NotFound
                    || err.kind() == io::ErrorKind::NotADirectory =>
            {
                exists = false;
                out = candidate;
            }
            Err(err) => return Err(err),
        }
    }
    Ok(Resolved::Path(out))
}

/// Puts the meaningful components of `path` (normal names and `..`) at the front of `pending`,
/// in order. Root and `.` components carry no information here.
fn push_components_front(pending: &mut VecDeque<OsString>, path: &Path) {
    let parts: Vec<OsString> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
        })
        .collect();
    for part in parts.into_iter().rev() {
        pending.push_front(part);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(p: &Path) -> PathBuf {
        match resolve_physical(p) {
            Ok(Resolved::Path(p)) => p,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn dot_dot_after_symlink_is_physical() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::os::unix::fs::symlink(root.join("a/b"), root.join("link")).unwrap();
        // link/.. is a/ physically, not root/ lexically.
        assert_eq!(resolved(&root.join("link/../x")), root.join("a/x"));
    }

    #[test]
    fn missing_tail_is_lexical() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        assert_eq!(
            resolved(&root.join("no/such/../file")),
            root.join("no/file")
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loop_is_detected() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::os::unix::fs::symlink(root.join("b"), root.join("a")).unwrap();
        std::os::unix::fs::symlink(root.join("a"), root.join("b")).unwrap();
        assert!(matches!(
            resolve_physical(&root.join("a/x")),
            Ok(Resolved::Loop(_))
        ));
    }
}
