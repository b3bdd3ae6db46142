//! A task.

pub(super) mod folder_turn;
pub mod repetition;
pub mod retry;
pub mod run;
pub mod subtask;
pub mod turn;
pub(super) mod user_input;
