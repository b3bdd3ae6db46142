//! The Foreman engine.
//!
//! Everything the desktop app and the headless CLI share lives here, with no dependency on Tauri
//! or a webview: model providers, streaming parsers, tools, the scheduler with approvals, and the
//! SQLite store. It implements the protocol of `foreman-protocol` (re-exported as [`protocol`]).
//! See `docs/ARCHITECTURE.md`.

pub use foreman_protocol as protocol;
pub use foreman_protocol::bindings;
/// The streaming parsers, from `foreman-stream`.
pub use foreman_stream::{partial_json, sse};

pub mod acp;
pub mod agent;
pub mod approval;
pub mod attachments;
pub mod boundary;
pub mod builtin_tools;
pub mod checkpoints;
pub mod conversation;
pub mod diff;
pub mod hooks;
pub mod mcp;
pub mod os_path;
pub mod process_tree;
pub mod project_rules;
pub mod providers;
pub mod sandbox;
pub mod secrets;
pub mod slash;
pub mod store;
pub mod tasks;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod tls;
pub mod tools;
pub mod watcher;
pub mod workspace;
