//! Foreman's streaming parsers, on their own so they build (and are fuzzed, in `fuzz/`) without
//! the engine: [`sse`] decodes a provider's `text/event-stream` body from byte chunks cut
//! anywhere, and [`partial_json`] shows a tool call's arguments while their JSON is still
//! arriving, reporting each change as a [`patch::Patch`] at a [`path::JsonPath`].
//!
//! Neither does I/O. The engine (`foreman-core`) re-exports [`sse`] and [`partial_json`], and
//! the protocol (`foreman-protocol`) re-exports [`patch`] and [`path`], whose types its events
//! carry.

pub mod partial_json;
pub mod patch;
pub mod path;
pub mod sse;
