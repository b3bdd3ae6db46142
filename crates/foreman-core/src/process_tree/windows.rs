//! Windows: the command is put in a Job Object that ends every process in it when terminated or
//! when its last handle closes.
//!
//! NOT COMPILED on the machine this project is built and tested on (it has no Windows target);
//! written against `windows-sys` 0.61 (features `Win32_Foundation`, `Win32_Security`,
//! `Win32_System_JobObjects`, `Win32_System_Threading`).

use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::process::ExitStatus;

use super::outcome::{CommandExit, Ended, Leftovers};

use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject,
};

/// Nothing to do before the start: the job is made and joined right after it.
#[derive(Debug)]
pub(super) struct Prepared;

pub(super) fn prepare(
    _command: &mut std::process::Command,
    _leftovers: Leftovers,
) -> std::io::Result<Prepared> {
    Ok(Prepared)
}

/// `process_wrap`'s own job object (feature `job-object`), which starts the command suspended
/// and resumes it once it is in the job, so nothing escapes.
pub(super) fn wrap(
    wrap: &mut process_wrap::tokio::CommandWrap,
    _prepared: Prepared,
) -> &mut process_wrap::tokio::CommandWrap {
    wrap.wrap(process_wrap::tokio::JobObject)
        .wrap(process_wrap::tokio::KillOnDrop)
}

/// The job the command is in (`None` when it could not be made or joined; then only the
/// command itself can be stopped, through its own handle).
#[derive(Debug)]
pub(super) struct Tree(Option<OwnedHandle>);

impl Tree {
    pub(super) fn of(child: &tokio::process::Child, _prepared: Prepared) -> Self {
        let job = child.raw_handle().and_then(|process| {
            // SAFETY: `process` is the child's open process handle, valid while `child` lives.
            unsafe { job_holding(process) }
        });
        if job.is_none() {
            tracing::warn!("could not put a command in a job object");
        }
        Self(job)
    }

    pub(super) fn kill(&self) {
        if let Some(job) = &self.0 {
            // SAFETY: `job` is an open job handle owned by `self`.
            unsafe { TerminateJobObject(job.as_raw_handle(), 1) };
        }
    }

    /// A job does not say what it ended.
    pub(super) fn ended(&self) -> Ended {
        Ended::default()
    }

    /// The job's first process is the command itself: nothing else to wait for.
    pub(super) async fn command_ended(&self) -> Option<CommandExit> {
        None
    }
}

/// A new job that kills its processes when closed, with `process` in it.
///
/// # Safety
/// `process` must be an open process handle.
unsafe fn job_holding(process: std::os::windows::io::RawHandle) -> Option<OwnedHandle> {
    // SAFETY: no security attributes and no name: an anonymous job with default security.
    let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
    if raw.is_null() {
        return None;
    }
    // SAFETY: `raw` is a new handle that nothing else owns.
    let job = unsafe { OwnedHandle::from_raw_handle(raw) };
    let mut limits = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    let size = u32::try_from(std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>()).ok()?;
    // SAFETY: `limits` is the structure the information class names, of `size` bytes, and lives
    // across the call.
    let set = unsafe {
        SetInformationJobObject(
            job.as_raw_handle(),
            JobObjectExtendedLimitInformation,
            std::ptr::from_ref(&limits).cast(),
            size,
        )
    };
    // SAFETY: both handles are open (the caller's promise for `process`).
    if set == 0 || unsafe { AssignProcessToJobObject(job.as_raw_handle(), process) } == 0 {
        return None;
    }
    Some(job)
}

/// Windows has no signals: a process always ends with an exit code.
pub(super) fn exit_signal(_status: ExitStatus) -> Option<i32> {
    None
}
