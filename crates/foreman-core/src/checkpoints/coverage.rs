//! What a checkpoint keeps: every file git would see up to a size limit, and the files git
//! ignores (`.env.local`, local configuration, small data files) up to a smaller one, outside the
//! folders that builds and package managers fill and can fill again (`node_modules/`,
//! `target/`, `.venv/`…: [`DEFAULT_EXCLUDED`], a list in Settings). A `git clean -fdx` or an
//! `rm -r` then loses nothing a rewind cannot bring back, and what no checkpoint keeps is known
//! before a command removes it ([`super::unkept`]).
//!
//! In the shadow repository the ignored files are a tree of their own, `.foreman/ignored/…`
//! (the workspace's own `.foreman/` folder is never recorded, so the name is free), beside a
//! marker `.foreman/keeps-ignored`: a checkpoint written before ignored files were kept has no
//! marker, and its ignored files are then neither compared nor restored. Everything outside
//! this module and the tree walks sees workspace paths.

/// The folders whose ignored files are not kept, by name, wherever they are.
pub const DEFAULT_EXCLUDED: &[&str] = &[
    "node_modules",
    "target",
    "dist",
    "build",
    "out",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".turbo",
    ".parcel-cache",
    ".cache",
    ".gradle",
    ".dart_tool",
    "vendor",
    "bower_components",
    ".terraform",
    "Pods",
    "DerivedData",
    "_build",
    "coverage",
    ".angular",
    ".stack-work",
    "elm-stuff",
    ".zig-cache",
    "zig-out",
];

/// The default limit on a recorded file's size.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 10 << 20;

/// The largest ignored file a checkpoint keeps.
pub const IGNORED_MAX_BYTES: u64 = 1 << 20;

/// The folder of a checkpoint's tree that holds Foreman's own entries.
pub(super) const OWN_DIR: &[u8] = b".foreman";
/// Its subtree of ignored files, by their workspace paths.
pub(super) const IGNORED_DIR: &[u8] = b"ignored";
/// The marker of a checkpoint that keeps ignored files.
pub(super) const MARKER: &[u8] = b"keeps-ignored";

/// What the checkpoints of one workspace keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// The largest file git sees that is kept.
    pub max_file_bytes: u64,
    /// Ignored files, when they are kept.
    pub ignored: Option<IgnoredFiles>,
}

/// Which ignored files are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoredFiles {
    pub max_bytes: u64,
    /// Folder names whose ignored files are not kept.
    pub excluded: Vec<String>,
}

impl Default for IgnoredFiles {
    fn default() -> Self {
        Self {
            max_bytes: IGNORED_MAX_BYTES,
            excluded: DEFAULT_EXCLUDED.iter().map(|s| (*s).to_owned()).collect(),
        }
    }
}

impl Default for Coverage {
    fn default() -> Self {
        Self {
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            ignored: Some(IgnoredFiles::default()),
        }
    }
}

impl Coverage {
    /// Only what git sees, up to `max_file_bytes` (how checkpoints were before they kept
    /// ignored files).
    pub fn visible_only(max_file_bytes: u64) -> Self {
        Self {
            max_file_bytes,
            ignored: None,
        }
    }

    /// What Settings say: files up to `max_file_mib`, and ignored files outside `excluded`
    /// when `keep_ignored`.
    pub fn from_settings(max_file_mib: u32, keep_ignored: bool, excluded: Vec<String>) -> Self {
        Self {
            max_file_bytes: u64::from(max_file_mib.max(1)) << 20,
            ignored: keep_ignored.then(|| IgnoredFiles {
                excluded,
                ..IgnoredFiles::default()
            }),
        }
    }

    /// Whether ignored files in a folder named `name` are left out.
    pub fn excludes(&self, name: &std::ffi::OsStr) -> bool {
        self.ignored
            .as_ref()
            .is_some_and(|i| i.excluded.iter().any(|e| name == e.as_str()))
    }
}

/// Where a file recorded at workspace path `path` is in a checkpoint's tree.
pub(super) fn tree_path(path: &[u8], ignored: bool) -> Vec<u8> {
    if !ignored {
        return path.to_vec();
    }
    let mut out = Vec::with_capacity(path.len() + 16);
    out.extend_from_slice(OWN_DIR);
    out.push(b'/');
    out.extend_from_slice(IGNORED_DIR);
    out.push(b'/');
    out.extend_from_slice(path);
    out
}

/// The tree path of the marker.
pub(super) fn marker_path() -> Vec<u8> {
    let mut out = OWN_DIR.to_vec();
    out.push(b'/');
    out.extend_from_slice(MARKER);
    out
}
