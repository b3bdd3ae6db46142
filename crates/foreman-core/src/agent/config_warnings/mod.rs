//! Config warnings.

pub(super) mod state;
