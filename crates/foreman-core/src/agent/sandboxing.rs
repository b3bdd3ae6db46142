//! [`Sandboxing`]: how a session confines its commands — the level, the network, the private
//! temporary directory — and whether this machine can (see [`crate::sandbox`]). The gate's part;
//! `escalation` is where a refused command asks to run outside.

use std::path::{Path, PathBuf};

use crate::protocol::{ApprovalMode, SandboxLevel, SandboxNote};
use crate::sandbox::{Availability, SandboxPolicy, availability};

/// How a session confines its commands.
#[derive(Debug, Clone)]
pub(crate) struct Sandboxing {
    pub(crate) level: SandboxLevel,
    pub(crate) network: bool,
    temp: PathBuf,
    available: Availability,
}

impl Sandboxing {
    pub(crate) fn new(level: SandboxLevel, network: bool, temp: PathBuf) -> Self {
        Self {
            level,
            network,
            temp,
            available: availability(level),
        }
    }

    /// Commands run confined: a level is set and this machine enforces it.
    pub(crate) fn confines(&self) -> bool {
        self.level != SandboxLevel::Off && self.available.is_available()
    }

    /// The sandbox a command runs in under `mode` (`None`: unconfined), and the note its card
    /// shows. `outside`: the user chose to run it outside.
    pub(crate) fn for_command(
        &self,
        mode: ApprovalMode,
        workspace: &Path,
        outside: bool,
    ) -> (Option<SandboxPolicy>, SandboxNote) {
        let unconfined = |why: Option<String>| SandboxNote {
            level: None,
            network: true,
            unconfined: why,
            refused: Vec::new(),
        };
        if outside || mode == ApprovalMode::Yolo || self.level == SandboxLevel::Off {
            return (None, unconfined(None));
        }
        match &self.available {
            Availability::Available { .. } => {
                let policy = SandboxPolicy {
                    level: self.level,
                    network: self.network,
                    workspace: workspace.to_path_buf(),
                    temp: self.temp.clone(),
                };
                let note = policy.note();
                (Some(policy), note)
            }
            Availability::Unavailable { reason } => (None, unconfined(Some(reason.clone()))),
        }
    }
}
