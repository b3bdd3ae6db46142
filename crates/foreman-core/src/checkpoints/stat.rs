//! What tells whether a file changed since a checkpoint last read it, without reading it.

/// The file's size, times and inode (on Windows: size and last write time only): when none changed, neither did its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stat {
    pub size: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
    pub ino: u64,
}
