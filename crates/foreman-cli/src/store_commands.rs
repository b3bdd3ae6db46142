//! The command lines of what the store keeps for a workspace: `checkpoints list`, `rewind`
//! and `rules list|add|remove`.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand};
use foreman_core::store::RuleAction;
use foreman_protocol::RuleScope;

use crate::store_args::StoreArgs;

/// `checkpoints list`.
#[derive(Debug, Subcommand)]
pub enum CheckpointsCommand {
    /// List the checkpoints of the workspace, or of one session.
    List {
        #[command(flatten)]
        store: StoreArgs,
        /// Only this session's checkpoints.
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// One JSON line per checkpoint.
        #[arg(long)]
        json: bool,
    },
}

/// `rewind`.
#[derive(Debug, Args)]
pub struct RewindArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// The session.
    #[arg(long, value_name = "ID")]
    pub session: String,
    /// The user's message to go back before, counted from 1.
    #[arg(long = "before-message", value_name = "N", value_parser = message_number)]
    pub before_message: u32,
    /// Do not ask for confirmation.
    #[arg(long)]
    pub yes: bool,
}

/// `rules list|add|remove`.
#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// List the rules in force in the workspace.
    List(StoreArgs),
    /// Add a rule, e.g. `bash(cargo test *)`, and list the rules.
    Add {
        #[command(flatten)]
        store: StoreArgs,
        /// Whose rule: this workspace's or the user's (every workspace).
        #[arg(long, value_name = "workspace|user", default_value = "workspace", value_parser = PossibleValuesParser::new(["workspace", "user"]).map(|s: String| if s == "user" { RuleScope::User } else { RuleScope::Workspace }))]
        scope: RuleScope,
        /// What the rule does to a matching call.
        #[arg(long, value_name = "allow|ask|deny", default_value = "allow", value_parser = PossibleValuesParser::new(["allow", "ask", "deny"]).try_map(|s: String| RuleAction::parse(&s).ok_or(format!("unknown action `{s}`"))))]
        action: RuleAction,
        /// The rule; several words are joined with spaces.
        #[arg(value_name = "RULE", required = true)]
        rule: Vec<String>,
    },
    /// Remove a rule by the id `rules list` shows, and list the rules.
    Remove {
        #[command(flatten)]
        store: StoreArgs,
        /// The rule's id.
        #[arg(value_name = "ID")]
        id: i64,
    },
}

/// A message number as the user counts it (from 1), stored as the index from 0.
fn message_number(v: &str) -> Result<u32, String> {
    v.parse::<u32>()
        .ok()
        .filter(|n| *n >= 1)
        .map(|n| n - 1)
        .ok_or_else(|| format!("counts from 1, not `{v}`"))
}
