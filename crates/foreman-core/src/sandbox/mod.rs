//! The sandbox commands run in: what a confined command may write and whether it may reach the
//! network ([`SandboxPolicy`]), whether this machine can enforce it ([`availability`]), and how
//! a command is put in it ([`confine`]).
//!
//! On Linux the child applies the policy to itself between `fork` and `exec` (`linux/`):
//! Landlock rules (read everywhere, write only the writable roots; no signal or abstract unix
//! socket out of the sandbox), a seccomp filter that refuses sockets other than `AF_UNIX` when
//! the network is off (and Landlock's TCP rules where the kernel has them), and a private mount
//! namespace in which `.git/` and `.foreman/` are read-only (at `workspace-write`), the
//! [`hidden`] paths and other programs' unix sockets are covered by stand-ins, and
//! `/run/user/UID` is empty. The variables that lead to the session bus, the agents and the
//! display leave its environment ([`HIDDEN_ENV`]). Everything is prepared in the parent; the
//! child only makes system calls. A machine that cannot enforce it says so: a command is never
//! run unconfined in its place without the user knowing (see `docs/SANDBOX.md` for macOS and
//! Windows, where it is not available yet).
//!
//! [`refusal`] finds, in a command's output, what the sandbox refused (so the user can be asked
//! to run it outside) and whether it tried to signal a process outside.

pub mod hidden;
#[cfg(target_os = "linux")]
mod linux;
pub mod refusal;
#[cfg(not(target_os = "linux"))]
mod unsupported;

pub mod policy;

pub use self::policy::{Availability, HIDDEN_ENV, SandboxError, SandboxPolicy};
pub use foreman_protocol::{SandboxLevel, SandboxNote};
#[cfg(target_os = "linux")]
pub use linux::{availability, confine};
#[cfg(not(target_os = "linux"))]
pub use unsupported::{availability, confine};
