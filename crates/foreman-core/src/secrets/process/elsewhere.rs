//! macOS and Windows: no switch that hides a process's memory from other processes of the same
//! user (on Windows, `ReadProcessMemory` with that user's rights reads the environment block),
//! so nothing is done beyond what [`super::take_env`] does everywhere: the key leaves the
//! environment that commands inherit. Not compiled on the machine this project is built and
//! tested on, which is Linux.

/// Nothing to do here; see the module documentation.
pub(super) fn make_non_dumpable() {}

/// Nothing to do here; see the module documentation.
///
/// # Safety
/// None needed; `unsafe` only to match the Linux version.
pub(super) unsafe fn wipe_initial(_var: &str) {}
