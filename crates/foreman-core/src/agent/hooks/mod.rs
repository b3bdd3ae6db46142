//! Where the session runs the hooks of [`crate::hooks`]: [`run`] runs one event's hooks and
//! shows each run; [`session_points`] holds the session's and the task's hook points. A call's
//! (`PreToolUse`, `PermissionRequest`, `Notification`, `PostToolUse`) are in
//! `calls/hook_points.rs`, on the call's path.

pub(super) mod run;
pub(super) mod session_points;
