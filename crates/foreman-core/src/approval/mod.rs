//! Approvals: which tool calls run freely, which wait for the person, which are refused.
//!
//! The decision for a call comes from, in order: deny rules, protected paths (always ask),
//! the approval mode's hard limits (read-only), ask rules, allow rules, then the mode's default
//! for the call's class, and finally the cap on auto-approved actions per user message.
//! A compound shell command (`&&`, `||`, `;`, `|`) is allowed by rules only if every part is.
//!
//! What the person approves is pinned by a [`preview_hash`]: the tool, its final parameters and,
//! for file changes, the file's current content. A decision carrying another hash is refused.

mod command;
mod hash;
mod mode;
mod policy;
mod rule;

pub use command::split_compound_command;
pub use hash::{canonical_json, content_hash, preview_hash};
pub use mode::ApprovalMode;
pub use policy::{ActionClass, CallFacts, Decision, Policy};
pub use rule::{Rule, RuleParseError, suggest_rule};
