//! Approvals: which tool calls run freely, which wait for the user, which are refused.
//!
//! The decision for a call comes from, in order: deny rules, protected paths (always ask),
//! the approval mode's hard limits (read-only), a command naming a path a deny rule keeps from
//! it where the sandbox does not (always ask), destructive tools and private network targets
//! (always ask unless a rule names the host), ask rules, allow rules, then the mode's default
//! for the call's class, and finally the cap on auto-approved actions per user message.
//!
//! A command line is read with a shell grammar first ([`shell`]): rules allow only a line of
//! plain commands, every one of which they allow; deny and ask rules look at every command
//! anywhere in it. A deny rule on a path also holds for commands ([`DeniedPaths`]): the
//! sandbox hides or locks the file, and a command that runs outside it and names the file asks.
//!
//! What the user approves is pinned by a [`preview_hash`]: the tool, its final parameters and,
//! for file changes, the file's current content. A decision carrying another hash is refused.

mod denied;
mod facts;
mod hash;
pub mod network;
mod pattern;
mod policy;
mod rule;
pub mod shell;
mod suggest;

#[cfg(test)]
mod corpus;

pub use denied::{DeniedPath, DeniedPaths};
pub use facts::{Access, ActionClass, CallFacts, NamedDenied};
pub use foreman_protocol::ApprovalMode;
pub use hash::{canonical_json, content_hash, preview_hash};
pub use pattern::{CommandPattern, Reach};
pub use policy::{Decision, Policy};
pub use rule::{Rule, RuleParseError};
pub use shell::{NotPlain, ShellLine};
pub use suggest::suggest_rule;
