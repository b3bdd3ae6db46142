//! Undoing a file change the agent made, whole ([`change`]) or some of its hunks ([`hunks`]);
//! [`state`] is what the undo keeps in memory.

pub mod change;
pub mod hunks;
pub mod state;
