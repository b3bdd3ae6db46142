//! What the writes of every platform share: what a write replaced, and the temporary file's name.

use std::sync::atomic::{AtomicU64, Ordering};

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// What an atomic write replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtomicWriteOutcome {
    /// Whether the file did not exist before.
    pub created: bool,
    /// Permission bits the file ended up with (on Windows `0o444` when read-only, else `0o644`).
    pub mode: u32,
}

/// How the name of every write's temporary file starts; the writer's process id and a counter
/// follow (`.foreman-tmp-1234-0`).
pub(super) const TEMP_PREFIX: &str = ".foreman-tmp-";

/// A name for a temporary file no other write of this or another Foreman uses.
pub(super) fn temp_name() -> String {
    format!(
        "{TEMP_PREFIX}{}-{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}
