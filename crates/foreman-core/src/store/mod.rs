//! The SQLite store: one database file, embedded migrations, WAL, a busy timeout; processes
//! opening it at once take turns until its schema is up to date (`db.rs`).
//!
//! Callers get a small typed API per concern (workspaces, sessions, history, checkpoints, rules,
//! usage…), one file each over the handle of `db.rs`; SQL stays inside this module. Its times are
//! Unix milliseconds from [`now_ms`], the one clock.

mod branches;
mod checkpoints;
mod clock;
mod db;
mod error;
mod history;
mod hook_consents;
mod mcp_approvals;
mod notices;
mod rules;
mod sessions;
mod tasks;
mod usage;
mod workspace_checkpoints;
mod workspaces;

pub use branches::{BranchOutcome, BranchSpec, UndoneSince};
pub use checkpoints::Checkpoint;
pub use clock::now_ms;
pub use db::{DATABASE_FILE, Store, move_aside};
pub use error::StoreError;
pub use history::{FINISHED_CALL_STATES, SUMMARY_ROLE, StoredMessage, StoredToolCall};
pub use notices::StoredNotice;
pub use rules::{RuleAction, StoredRule, rule_key};
pub use sessions::{SessionSummary, new_session_id, title_from_message};
pub use tasks::{TaskLife, TaskRow};
pub use usage::{ModelUsage, UsageTotals};
pub use workspace_checkpoints::{NewWorkspaceCheckpoint, WorkspaceCheckpoint};
pub use workspaces::RecentWorkspace;
