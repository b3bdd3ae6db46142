//! Test support shared by this crate's tests and downstream crates (feature `testing`).

pub mod sse_server;
