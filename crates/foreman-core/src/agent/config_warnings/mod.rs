//! What is wrong with the configuration a session reads (its hooks' settings files, skills and
//! commands, MCP files, rule files): [`state`] keeps what was found and told, `report` tells the
//! user, each warning once.

mod report;
pub(super) mod state;
