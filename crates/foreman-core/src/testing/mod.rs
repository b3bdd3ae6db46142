//! Test support shared by this crate's tests and downstream crates (feature `testing`).

pub mod scripted_provider;
pub mod scripts;
pub mod sse_server;
