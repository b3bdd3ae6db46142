//! A call's journey.

pub mod approvals;
pub mod args_stream;
pub mod batches;
pub mod call_state;
pub mod escalation;
pub(super) mod hook_points;
pub(super) mod job;
pub mod preview;
pub(super) mod sandboxing;
