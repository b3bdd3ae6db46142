//! A task: the loop of turns and why it ends, the retry, a sub-agent, the folder a task takes.

pub(super) mod folder_turn;
pub mod repetition;
pub mod run;
pub(super) mod state;
pub mod subtask;
pub mod turn;
