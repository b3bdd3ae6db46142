//! A call's journey, from the model's response to its result in the history. The stages, in
//! order:
//!
//! 1. **gate** (`gate.rs`): the arguments must have parsed and the tool be offered; the tool
//!    runtime prepares the call ([`crate::tools::pipeline`]: find, repair, validate, parse,
//!    facts), the `PreToolUse` hooks (`hook_points.rs`) and the policy decide. One call becomes
//!    one of: run in a batch, run alone, ask, or done.
//! 2. **batch** (`batches.rs`): consecutive reads run together; a call that runs alone or asks
//!    first lets the batch before it run. Once the turn ends, the calls after it are not run.
//! 3. **ask** (`ask.rs`): a `PermissionRequest` hook or the user decides, on a preview pinned
//!    by hash (`approvals.rs`); the user's own version of a change is written instead of the
//!    model's (`users_version.rs`).
//! 4. **run** (`run.rs`): a checkpoint before a step that may change the workspace, the command
//!    in its sandbox (`sandboxing.rs`), the tool's timeout and the task's cancel token; live
//!    output shown and ops answered while it runs.
//! 5. **settle** (`settle.rs`): stats, what the sandbox refused, a system tool's request, the
//!    `PostToolUse` hooks, the undo's checkpoint; failures counted towards a pause.
//! 6. **escalate** (`escalation.rs`): a command the sandbox refused something asks to run
//!    again outside it, and runs there (stage 4).
//!
//! Results go into history in call order, one per call, whatever happened (`results.rs`).
//! Every call's state is in the registry (`call_state.rs`); its card grows while the model
//! writes it (`args_stream.rs`, `preview.rs`). What travels between the stages (`job.rs`,
//! `results.rs`) and the part the stages read (`state.rs`: `Oversight`) import no engine.

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
pub(super) mod state;
pub(super) mod users_version;
