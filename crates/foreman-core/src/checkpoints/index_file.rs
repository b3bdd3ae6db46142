//! What the checkpoints knew about each file, kept beside the shadow repository between runs
//! (`foreman-index`), as git keeps its index: a path, its stat and the object its content was
//! written as. With it, the first checkpoint after a start `stat`s every file but reads only
//! those that changed while Foreman was not running.
//!
//! It is a cache: a missing, older-format or damaged file is read as empty (every file is read
//! again), and files whose times were too close to the save to be trusted are not kept.

use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use gix::ObjectId;

use super::scan::{Kind, Stat};
use super::shadow::Recorded;

const MAGIC: &[u8; 8] = b"FMCKIX02";
/// Set in a file's kind byte when git ignores it.
const IGNORED_BIT: u8 = 0x80;

/// The index file of the shadow repository at `repo`.
pub fn path_in(repo: &Path) -> PathBuf {
    repo.join("foreman-index")
}

/// One file as a checkpoint last saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    pub stat: Stat,
    pub recorded: Recorded,
    /// Its times are too close to when it was read to prove a later change would show in them.
    pub racy: bool,
    /// Git ignores it: it is kept under the checkpoint's `.foreman/ignored/`.
    pub ignored: bool,
}

/// Writes `files` to `path` (through a temporary file, renamed into place).
pub fn save(path: &Path, files: &BTreeMap<Vec<u8>, Seen>) -> std::io::Result<()> {
    let temporary = path.with_extension("tmp");
    let mut out = BufWriter::new(std::fs::File::create(&temporary)?);
    out.write_all(MAGIC)?;
    for (name, seen) in files.iter().filter(|(_, s)| !s.racy) {
        let length = u32::try_from(name.len()).map_err(std::io::Error::other)?;
        out.write_all(&length.to_le_bytes())?;
        out.write_all(name)?;
        let ignored = if seen.ignored { IGNORED_BIT } else { 0 };
        out.write_all(&[kind_byte(seen.recorded.kind) | ignored])?;
        out.write_all(&seen.stat.size.to_le_bytes())?;
        out.write_all(&seen.stat.mtime_ns.to_le_bytes())?;
        out.write_all(&seen.stat.ctime_ns.to_le_bytes())?;
        out.write_all(&seen.stat.ino.to_le_bytes())?;
        out.write_all(seen.recorded.oid.as_bytes())?;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&temporary, path)
}

/// The files of the index at `path`; empty when it is missing or cannot be read.
pub fn load(path: &Path) -> BTreeMap<Vec<u8>, Seen> {
    let Ok(bytes) = std::fs::read(path) else {
        return BTreeMap::new();
    };
    parse(&bytes).unwrap_or_default()
}

fn parse(bytes: &[u8]) -> Option<BTreeMap<Vec<u8>, Seen>> {
    let mut rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let mut files = BTreeMap::new();
    while !rest.is_empty() {
        let length = u32::from_le_bytes(take(&mut rest)?) as usize;
        let name = rest.get(..length)?.to_vec();
        rest = &rest[length..];
        let byte = take::<1>(&mut rest)?[0];
        let kind = kind_of(byte & !IGNORED_BIT)?;
        let stat = Stat {
            size: u64::from_le_bytes(take(&mut rest)?),
            mtime_ns: i128::from_le_bytes(take(&mut rest)?),
            ctime_ns: i128::from_le_bytes(take(&mut rest)?),
            ino: u64::from_le_bytes(take(&mut rest)?),
        };
        let oid = ObjectId::try_from(take::<20>(&mut rest)?.as_slice()).ok()?;
        let recorded = Recorded { oid, kind };
        files.insert(
            name,
            Seen {
                stat,
                recorded,
                racy: false,
                ignored: byte & IGNORED_BIT != 0,
            },
        );
    }
    Some(files)
}

fn take<const N: usize>(rest: &mut &[u8]) -> Option<[u8; N]> {
    let head: [u8; N] = rest.get(..N)?.try_into().ok()?;
    *rest = &rest[N..];
    Some(head)
}

fn kind_byte(kind: Kind) -> u8 {
    match kind {
        Kind::File => 0,
        Kind::Executable => 1,
        Kind::Symlink => 2,
    }
}

fn kind_of(byte: u8) -> Option<Kind> {
    match byte {
        0 => Some(Kind::File),
        1 => Some(Kind::Executable),
        2 => Some(Kind::Symlink),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(n: u8, racy: bool) -> Seen {
        Seen {
            stat: Stat {
                size: u64::from(n),
                mtime_ns: -i128::from(n),
                ctime_ns: i128::from(n) << 70,
                ino: 7,
            },
            recorded: Recorded {
                oid: ObjectId::from_bytes_or_panic(&[n; 20]),
                kind: Kind::Executable,
            },
            racy,
            ignored: n.is_multiple_of(2),
        }
    }

    #[test]
    fn an_index_comes_back_without_its_racy_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_in(dir.path());
        let mut files = BTreeMap::new();
        files.insert(b"a/b.rs".to_vec(), seen(1, false));
        files.insert(vec![0xff, b'x'], seen(2, false));
        files.insert(b"fresh.rs".to_vec(), seen(3, true));
        save(&path, &files).unwrap();
        files.remove(&b"fresh.rs"[..]);
        assert_eq!(load(&path), files);
    }

    #[test]
    fn a_damaged_or_missing_index_reads_as_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_in(dir.path());
        assert!(load(&path).is_empty());
        let mut files = BTreeMap::new();
        files.insert(b"a.rs".to_vec(), seen(1, false));
        save(&path, &files).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(load(&path).is_empty());
        std::fs::write(&path, b"something else").unwrap();
        assert!(load(&path).is_empty());
    }
}
