//! `foreman-cli`'s integration tests, one binary: each module a feature, `common` what they
//! share (the binary, an isolated environment, a run that answers approvals).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

mod acp_agents;
mod acp_settings;
mod checkpoints;
mod claude_code;
mod codex;
mod command_line;
mod common;
mod config_warnings;
mod deny_rules;
mod exec_attacks;
mod exec_big_files;
mod exec_json;
mod exec_leftovers;
mod exec_mcp;
mod exec_output_bound;
mod exec_thinking;
mod exec_tools;
mod first_start;
mod gemini;
mod hooks;
mod leftovers;
mod local_model;
mod rules;
mod sandbox_doors;
mod sandbox_tools;
mod slash;
mod task_branches;
mod tasks;
