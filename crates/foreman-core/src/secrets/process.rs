//! Keeping the process's own keys out of reach of the commands it runs.

use crate::providers::Secret;

/// On Linux, makes the process non-dumpable: its `/proc/PID/environ`, `/proc/PID/mem` and the
/// like then belong to root, so a command the agent runs as the same user cannot read the keys
/// there (a process with `CAP_SYS_PTRACE`, such as root, still can). Also remembers the
/// secret-looking variables of the environment ([`super::remember_environment`]). Call once, at
/// start.
pub fn harden() {
    super::remember_environment();
    #[cfg(target_os = "linux")]
    if let Err(e) =
        rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)
    {
        tracing::warn!("could not make the process non-dumpable: {e}");
    }
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
    #[cfg(target_os = "linux")]
    // SAFETY: the caller guarantees no other thread reads the environment meanwhile.
    unsafe {
        wipe_initial(var);
    }
    // SAFETY: as above.
    unsafe { std::env::remove_var(var) };
    value.map(Secret::new).filter(|secret| !secret.is_blank())
}

/// Overwrites the value of `var` in place in the process's environment block with zero bytes.
#[cfg(target_os = "linux")]
unsafe fn wipe_initial(var: &str) {
    use std::ffi::{CStr, c_char};
    unsafe extern "C" {
        static mut environ: *mut *mut c_char;
    }
    let prefix = format!("{var}=");
    // SAFETY: `environ` is the C library's null-terminated array of NUL-terminated strings;
    // nothing else changes it meanwhile (the caller's promise). Each string is writable memory
    // (the initial block on the stack, or one `setenv` allocated), and only bytes before its
    // terminating NUL are written.
    unsafe {
        let mut entry = environ;
        if entry.is_null() {
            return;
        }
        while !(*entry).is_null() {
            let text = CStr::from_ptr(*entry).to_bytes();
            if text.starts_with(prefix.as_bytes()) {
                let value = (*entry).cast::<u8>().add(prefix.len());
                std::ptr::write_bytes(value, 0, text.len() - prefix.len());
            }
            entry = entry.add(1);
        }
    }
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
