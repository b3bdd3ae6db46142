//! Keeping API keys out of everything a tool produces.
//!
//! Every key the process holds as a [`Secret`] (or finds in its own
//! environment under a secret-looking name, [`remember_environment`]) is remembered here for the
//! life of the process. The session scrubs each tool's output of them, once, on the per-call
//! path, before it reaches the model, the store, the events or a recording ([`scrub`],
//! [`StreamScrubber`] for output that arrives in pieces); provider recordings scrub response
//! bodies the same way. [`process`] keeps the keys out of reach of the commands the agent runs:
//! the CLI takes its key variables out of its environment, and on Linux the process is made
//! non-dumpable so that another process of the same user cannot read its `/proc/PID/environ`
//! or memory (root still can).

pub mod process;
mod registry;
mod secret;
mod stream;

pub use registry::{
    REDACTED, is_credential_name, remember, remember_environment, scrub, scrub_bytes,
};
pub use secret::Secret;
pub use stream::StreamScrubber;
