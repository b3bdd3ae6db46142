//! The engine's integration tests, one binary: each module a feature, `common` what they
//! share.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

mod approvals;
mod approve_hunks;
mod atomic_write_kill;
mod attachments;
// Unix file types and permission bits.
#[cfg(unix)]
mod boundary_corpus;
#[cfg(unix)]
mod checkpoints;
// inotify: the real watcher's journal and its queue's overflow.
#[cfg(target_os = "linux")]
mod checkpoint_journal;
mod common;
mod compaction;
mod connection_test;
mod decisions;
mod edits;
mod hooks;
mod max_tokens;
mod mcp_cancellation;
// The real MCP servers of `mcp_servers`, in the sandbox (Linux).
#[cfg(unix)]
mod mcp_sandbox;
// Kills processes by id with Unix signals.
#[cfg(unix)]
mod mcp_servers;
mod model_choice;
mod models;
mod project_rules;
mod prompt_cache;
mod providers_chunking;
mod providers_http;
mod providers_text_protocol;
mod queued_messages;
mod retry;
mod sandbox;
// The real server-filesystem of `mcp_servers` (Unix).
#[cfg(unix)]
mod session_changes;
mod sse_fixtures;
mod stale_approvals;
mod sub_agents;
mod task_loop;
mod tool_runtime;
mod undo;
mod usage;
