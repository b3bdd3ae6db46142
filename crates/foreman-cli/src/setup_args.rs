//! The command lines of what a workspace brings from Claude Code: `hooks list` and `slash list`.

use clap::{Args, Subcommand};

use crate::store_args::StoreArgs;

/// `hooks list`.
#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Print each hook with its event, matcher, command and file, and what waits for consent.
    List(HooksListArgs),
}

/// `hooks list`.
#[derive(Debug, Clone, Args)]
pub struct HooksListArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// One JSON object (the hooks, the warnings, the consent hash) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `slash list`.
#[derive(Debug, Subcommand)]
pub enum SlashCommand {
    /// List the built-ins, commands and skills, then the files that could not be loaded.
    List {
        /// The workspace folder.
        #[arg(long, value_name = "DIR")]
        workspace: String,
        /// Print the catalog as one JSON object.
        #[arg(long)]
        json: bool,
    },
}
