//! The engine's integration tests, one binary: each module a feature, `common` what they
//! share.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

mod common;
mod session_loop;
mod tool_runtime;
