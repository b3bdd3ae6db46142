//! `--workspace` and `--db`, the options of every command that reads the store.

use std::path::PathBuf;

use clap::Args;

/// `--workspace` and `--db`, which every store command takes.
#[derive(Debug, Clone, Args)]
pub struct StoreArgs {
    /// The workspace folder.
    #[arg(long, value_name = "DIR")]
    pub workspace: String,
    /// The database (default: the desktop app's).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}
