//! Keeping the process's own keys out of reach of the commands it runs.
//!
//! The platform pieces are in `linux.rs` (non-dumpable, and wiping the initial environment
//! block) and `elsewhere.rs` (macOS and Windows, where there is no per-process switch of that
//! kind: there the key is only removed from the environment commands inherit).

#[cfg(not(target_os = "linux"))]
mod elsewhere;
#[cfg(not(target_os = "linux"))]
use elsewhere as imp;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as imp;

use super::Secret;

/// On Linux, makes the process non-dumpable: its `/proc/PID/environ`, `/proc/PID/mem` and the
/// like then belong to root, so a command the agent runs as the same user cannot read the keys
/// there (a process with `CAP_SYS_PTRACE`, such as root, still can). Also remembers the
/// secret-looking variables of the environment ([`super::remember_environment`]). Call once, at
/// start.
pub fn harden() {
    super::remember_environment();
    imp::make_non_dumpable();
}

/// Takes the key in the environment variable `var`: reads it, remembers it as a secret, and
/// removes the variable, so nothing started later inherits it and (on Linux) the copy in the
/// environment the process was started with is overwritten, which is what
/// `/proc/PID/environ` shows.
///
/// # Safety
/// Changes the process environment: call it before any other thread exists (at the start of
/// `main`, before an async runtime starts).
pub unsafe fn take_env(var: &str) -> Option<Secret> {
    let value = std::env::var(var).ok();
    // SAFETY: the caller guarantees no other thread reads the environment meanwhile.
    unsafe {
        imp::wipe_initial(var);
    }
    // SAFETY: as above.
    unsafe { std::env::remove_var(var) };
    value.map(Secret::new).filter(|secret| !secret.is_blank())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_key_leaves_the_environment() {
        let var = "FOREMAN_TEST_TAKE_ENV_KEY";
        // SAFETY: this test is the only user of this variable name; the environment of a test
        // binary is otherwise only read.
        unsafe { std::env::set_var(var, "sk-take-env-test-12345") };
        let key = unsafe { take_env(var) }.unwrap();
        assert_eq!(key.expose(), "sk-take-env-test-12345");
        assert!(std::env::var_os(var).is_none());
        assert_eq!(
            super::super::scrub("x sk-take-env-test-12345").as_ref(),
            "x [REDACTED]"
        );
        assert!(unsafe { take_env(var) }.is_none());
    }
}
