//! Project rules: the instruction files a workspace gives the agent.
//!
//! Every directory may have one rule file. `AGENTS.md` is read first; a directory without one
//! falls back to `CLAUDE.md`, then `GEMINI.md`, then `.clinerules` (a file, or a folder whose
//! `*.md` files are read in name order), so people coming from other tools keep their rules.
//! Each is cut at [`MAX_RULE_BYTES`] with a note saying so, and the model is always told which
//! file it is reading.
//!
//! - [`rule_file`]: finding and reading the rule file of one directory, and the user's file.
//! - The user's file and the workspace root's go into the system prompt (`agent::prompt`).
//! - [`nested`]: a rule file in a directory below the root is given with the result of the first
//!   tool call that touches that directory (its path in the call's facts), not in the system
//!   prompt, so the system prompt stays byte-stable for the provider's prompt cache.
//! - [`in_force`]: the list Settings shows for a workspace.
//! - [`warnings`]: what keeps the system prompt's rule files from the model as written (a file
//!   that cannot be read, a link out of the workspace, a file past the limit), for the user.

pub mod in_force;
pub mod nested;
pub mod rule_file;
pub mod warnings;

pub use in_force::rule_files_in_force;
pub use nested::NestedRules;
pub use rule_file::{MAX_RULE_BYTES, RULE_FILE_NAMES, RuleText, read_user_rules, rules_of_dir};
pub use warnings::rule_warnings;
