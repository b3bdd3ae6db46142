//! Undo.

pub mod change;
pub mod hunks;
pub mod state;
