//! A call's journey.

pub mod approvals;
pub mod args_stream;
mod ask;
pub mod batches;
pub mod call_state;
pub mod escalation;
mod gate;
pub(super) mod hook_points;
pub(super) mod job;
pub mod preview;
pub(super) mod results;
mod run;
pub(super) mod sandboxing;
mod settle;
pub(super) mod users_version;
