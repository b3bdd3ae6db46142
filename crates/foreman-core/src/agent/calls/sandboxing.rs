//! [`Sandboxing`]: how a session confines its commands — the level, the network, the paths
//! hidden from them, the private temporary directory — and whether this machine can (see
//! [`crate::sandbox`]). Part of the engine's `Oversight`; `escalation.rs` is where a refused
//! command asks to run outside. Each call's command is also kept from the paths the deny rules name
//! ([`DeniedPaths`], found as it starts), and its card lists the ones it touched.
//!
//! The temporary directory is the session's own, in the system's temporary directory and
//! removed with the session: never under the app's data directory, which is hidden.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::approval::shell::program_index;
use crate::approval::{DeniedPaths, ShellLine};
use crate::protocol::{ApprovalMode, SandboxLevel, SandboxNote};
use crate::sandbox::policy::confined_note;
use crate::sandbox::refusal::{refused_lines, signalled_outside};
use crate::sandbox::{Availability, SandboxPolicy, availability, hidden};
use crate::tasks::OtherBranches;

/// How a session confines its commands.
#[derive(Debug, Clone)]
pub(crate) struct Sandboxing {
    pub(crate) level: SandboxLevel,
    pub(crate) network: bool,
    /// Paths replaced by stand-ins in the sandbox (absolute).
    pub(crate) hidden: Vec<PathBuf>,
    /// What a confined command may write besides the workspace, and its extra environment
    /// (a task's git directory and private object store).
    extra_writable: Vec<PathBuf>,
    read_only: Vec<PathBuf>,
    env: Vec<(String, String)>,
    /// A task's view of the other tasks' branches, kept from each command as it starts.
    branches: Option<OtherBranches>,
    /// The home folder, for how a card names a hidden path (`~/.ssh`).
    home: Option<PathBuf>,
    temp: PathBuf,
    /// Keeps the temporary directory for the session's life.
    _temp_dir: Option<Arc<tempfile::TempDir>>,
    available: Availability,
}

/// What a confined command's run showed, for its card and the escalation.
#[derive(Debug, Default)]
pub(crate) struct AfterRun {
    /// Lines that show the sandbox refused something the user may let it do outside.
    pub(crate) refused: Vec<String>,
    /// Hidden paths it named or needs, as the list names them.
    pub(crate) hidden: Vec<String>,
    /// It tried to signal a process outside the sandbox.
    pub(crate) signalled_outside: bool,
    /// Paths a deny rule keeps from commands that it named or printed (none is offered a run
    /// outside the sandbox: the rule would not hold there).
    pub(crate) denied: Vec<String>,
}

impl AfterRun {
    /// The user may let it run again outside the sandbox: the sandbox refused or hid something
    /// it needed, and no deny rule would stop holding there.
    pub(crate) fn may_run_outside(&self) -> bool {
        (!self.refused.is_empty() || !self.hidden.is_empty()) && self.denied.is_empty()
    }
}

impl Sandboxing {
    /// `fallback_temp` is used only when the system's temporary directory cannot hold one.
    pub(crate) fn new(
        level: SandboxLevel,
        network: bool,
        hidden: Vec<PathBuf>,
        fallback_temp: PathBuf,
    ) -> Self {
        let made = tempfile::Builder::new()
            .prefix("foreman-sandbox-")
            .tempdir()
            .map_err(|error| tracing::warn!(%error, "no private temporary directory"))
            .ok();
        let temp = made
            .as_ref()
            .map_or(fallback_temp, |dir| dir.path().join("tmp"));
        Self {
            level,
            network,
            hidden,
            extra_writable: Vec::new(),
            read_only: Vec::new(),
            env: Vec::new(),
            branches: None,
            home: std::env::var_os("HOME").map(PathBuf::from),
            temp,
            _temp_dir: made.map(Arc::new),
            available: availability(level),
        }
    }

    /// A task's place: what its confined commands may write besides the workspace, their
    /// environment, and the other tasks' branches they may not move.
    pub(crate) fn with_task_place(
        mut self,
        writable: Vec<PathBuf>,
        read_only: Vec<PathBuf>,
        env: Vec<(String, String)>,
        branches: Option<OtherBranches>,
    ) -> Self {
        self.extra_writable = writable;
        self.read_only = read_only;
        self.env = env;
        self.branches = branches;
        self
    }

    /// Commands run confined: a level is set and this machine enforces it.
    pub(crate) fn confines(&self) -> bool {
        self.level != SandboxLevel::Off && self.available.is_available()
    }

    /// The note of a confined command's card.
    pub(crate) fn note(&self) -> SandboxNote {
        confined_note(self.level, self.network)
    }

    /// The sandbox a command runs in under `mode` (`None`: unconfined), and the note its card
    /// shows. `unsandboxed`: the user chose to run it outside.
    pub(crate) fn for_command(
        &self,
        mode: ApprovalMode,
        workspace: &Path,
        unsandboxed: bool,
    ) -> (Option<SandboxPolicy>, SandboxNote) {
        let unconfined = |why: Option<String>| SandboxNote {
            level: None,
            network: true,
            unconfined: why,
            ..self.note()
        };
        if unsandboxed || mode == ApprovalMode::Yolo || self.level == SandboxLevel::Off {
            return (None, unconfined(None));
        }
        match &self.available {
            Availability::Available { .. } => {
                let mut policy = SandboxPolicy::new(
                    self.level,
                    self.network,
                    workspace.to_path_buf(),
                    self.temp.clone(),
                );
                policy.hidden = self.hidden.clone();
                policy.extra_writable = self.extra_writable.clone();
                policy.read_only = self.read_only.clone();
                policy.env = self.env.clone();
                if let Some(branches) = &self.branches {
                    branches.keep_from(&mut policy);
                }
                (Some(policy), self.note())
            }
            Availability::Unavailable { reason } => (None, unconfined(Some(reason.clone()))),
        }
    }

    /// The sandbox an external agent's whole process runs in, whatever the session's level and
    /// mode: `workspace-write` with the network (it must reach its model), writing its place
    /// (`workspace`, a task's git directory and branch), its temporary directory and `own` (its
    /// login and settings, which are not hidden from it), every other hidden path hidden.
    /// `Err`: this machine cannot confine it (the text says why).
    pub(crate) fn for_agent(
        &self,
        workspace: &Path,
        own: &[PathBuf],
    ) -> Result<SandboxPolicy, String> {
        if let Availability::Unavailable { reason } = availability(SandboxLevel::WorkspaceWrite) {
            return Err(reason);
        }
        let mut policy = SandboxPolicy::new(
            SandboxLevel::WorkspaceWrite,
            true,
            workspace.to_path_buf(),
            self.temp.clone(),
        );
        policy.hidden = self
            .hidden
            .iter()
            .filter(|hidden| {
                !own.iter()
                    .any(|o| o.starts_with(hidden) || hidden.starts_with(o))
            })
            .cloned()
            .collect();
        policy.extra_writable = self.extra_writable.clone();
        policy.extra_writable.extend(own.iter().cloned());
        policy.read_only = self.read_only.clone();
        policy.env = self.env.clone();
        if let Some(branches) = &self.branches {
            branches.keep_from(&mut policy);
        }
        Ok(policy)
    }

    /// [`Self::for_command`] for a call, with `denied` (what the deny rules keep from
    /// commands, found as it starts) kept from it: hidden when denied for reading, read-only
    /// when denied for writing.
    pub(crate) fn for_call(
        &self,
        mode: ApprovalMode,
        workspace: &Path,
        unsandboxed: bool,
        denied: &DeniedPaths,
    ) -> (Option<SandboxPolicy>, SandboxNote) {
        let (policy, note) = self.for_command(mode, workspace, unsandboxed);
        let policy = policy.map(|mut policy| {
            let (hidden, read_only) = denied.covered();
            policy.hidden.extend(hidden);
            policy.read_only.extend(read_only);
            policy
        });
        (policy, note)
    }

    /// What the confined run of `line` that printed `output` showed, `denied` what the deny
    /// rules kept from it. `failed`: it exited with an error (only then is there something to
    /// run again outside).
    pub(crate) fn after_run(
        &self,
        line: Option<&ShellLine>,
        denied: &DeniedPaths,
        output: &str,
        failed: bool,
    ) -> AfterRun {
        // What it ran, without assignments: only a failure is put down to a missing credential.
        let ran: Vec<Vec<String>> = match (line, failed) {
            (Some(l), true) => l
                .everywhere
                .iter()
                .filter_map(|words| program_index(words).map(|i| words[i..].to_vec()))
                .collect(),
            _ => Vec::new(),
        };
        let text = line.map_or("", |l| l.text.as_str());
        let signalled = signalled_outside(output);
        AfterRun {
            // A refused signal is not something to let out of the sandbox.
            refused: match failed {
                true => refused_lines(output)
                    .into_iter()
                    .filter(|l| !signalled_outside(l))
                    .collect(),
                false => Vec::new(),
            },
            hidden: hidden::touched(&self.hidden, self.home.as_deref(), text, output, &ran),
            signalled_outside: signalled,
            denied: denied.touched(line, output),
        }
    }
}
