//! Platforms without a sandbox yet (macOS and Windows; see `docs/SANDBOX.md`): commands cannot
//! be confined, and the app says so.

use std::process::Command;

use super::policy::{Availability, SandboxError, SandboxPolicy};
use foreman_protocol::SandboxLevel;

const NOT_HERE: &str = "the sandbox is not available on this platform yet";

/// Never available here.
pub fn availability(_level: SandboxLevel) -> Availability {
    Availability::Unavailable {
        reason: NOT_HERE.into(),
    }
}

/// Refuses: a command is never run unconfined in the sandbox's place.
pub fn confine(_command: &mut Command, policy: &SandboxPolicy) -> Result<(), SandboxError> {
    match policy.level {
        SandboxLevel::Off => Ok(()),
        _ => Err(SandboxError::Unavailable(NOT_HERE.into())),
    }
}
