//! A message that starts with `/name` (`input`), and what its command changed for the task it
//! started (`state`), put back when the task ends.

pub(super) mod input;
pub(super) mod state;
