//! Linux: the process is made non-dumpable, and a taken key is overwritten in the environment
//! block the process was started with (what `/proc/PID/environ` shows).

/// Makes the process non-dumpable, so its `/proc/PID/environ`, `/proc/PID/mem` and the like
/// belong to root.
pub(super) fn make_non_dumpable() {
    if let Err(e) =
        rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)
    {
        tracing::warn!("could not make the process non-dumpable: {e}");
    }
}

/// Overwrites the value of `var` in place in the process's environment block with zero bytes.
///
/// # Safety
/// No other thread may read or change the environment meanwhile.
pub(super) unsafe fn wipe_initial(var: &str) {
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
