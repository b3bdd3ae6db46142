//! A task's place for a session: the folder its agent works in, what its confined commands may
//! write there and their environment ([`Place`]; the session's configuration takes it, in
//! `agent`, which this layer does not see); holding it while the session runs ([`Running`]:
//! the tasks-at-once slot; a task in the folder itself takes the folder while its agent
//! works); and the repository's setup commands, run once, confined, with the network on.

use std::path::PathBuf;

use crate::protocol::{SandboxLevel, TaskPlace};
use crate::sandbox::{self, SandboxPolicy};
use crate::store::TaskRow;

use super::config::TaskConfig;
use super::error::TaskError;
use super::refs::OtherBranches;
use super::{Tasks, locks};

/// Where a task's session works.
#[derive(Debug, Clone)]
pub struct Place {
    pub task: TaskRow,
    /// The session's workspace: the worktree, or the folder itself.
    pub workspace: PathBuf,
    /// What a confined command may write besides the workspace.
    pub sandbox_writable: Vec<PathBuf>,
    /// Files in those a confined command may not change.
    pub sandbox_read_only: Vec<PathBuf>,
    /// A confined command's extra environment.
    pub sandbox_env: Vec<(String, String)>,
    /// For a worktree: the other tasks' branches, kept from each confined command.
    pub sandbox_branches: Option<OtherBranches>,
    /// Every command's extra environment (`FOREMAN_PORT`, `FOREMAN_TASK`).
    pub command_env: Vec<(String, String)>,
    /// For a task in the folder itself: the folder its agent takes while it works.
    pub folder_turn: Option<locks::FolderTurn>,
}

impl Place {
    /// The folder the user opened, which the task belongs to: its hooks' consents and its MCP
    /// servers' approvals are that folder's.
    pub fn folder(&self) -> PathBuf {
        PathBuf::from(&self.task.workspace_path)
    }

    pub fn is_worktree(&self) -> bool {
        self.task.place == TaskPlace::Worktree
    }

    /// The sandbox of a program the task's repository asks for (its setup, its run command):
    /// `workspace-write` in this place with the network on, `hidden` hidden, `temp` its
    /// temporary directory, the other tasks' branches as they are now kept from it.
    pub fn network_policy(&self, temp: PathBuf, hidden: Vec<PathBuf>) -> SandboxPolicy {
        let mut policy = SandboxPolicy::new(
            SandboxLevel::WorkspaceWrite,
            true,
            self.workspace.clone(),
            temp,
        );
        policy.hidden = hidden;
        policy.extra_writable = self.sandbox_writable.clone();
        policy.read_only = self.sandbox_read_only.clone();
        policy.env = self.sandbox_env.clone();
        if let Some(branches) = &self.sandbox_branches {
            branches.keep_from(&mut policy);
        }
        policy
    }
}

/// A task whose session runs: its place, and the locks held until it ends.
#[derive(Debug)]
pub struct Running {
    pub place: Place,
    _locks: Vec<locks::Held>,
}

/// How the setup commands are confined.
#[derive(Debug, Clone)]
pub struct SetupSandbox {
    pub hidden: Vec<PathBuf>,
}

impl Tasks {
    /// The place of task `id` (`None`: the session is not a task). A worktree deleted by hand
    /// is an error that says so.
    pub async fn place(&self, id: &str) -> Result<Option<Place>, TaskError> {
        let Some(task) = self.store.task(id).await? else {
            return Ok(None);
        };
        let workspace = PathBuf::from(&task.path);
        let mut command_env = vec![("FOREMAN_TASK".to_owned(), task.name.clone())];
        if let Some(port) = task.port {
            command_env.push(("FOREMAN_PORT".into(), port.to_string()));
        }
        let mut sandbox_branches = None;
        let (sandbox_writable, sandbox_read_only, sandbox_env) =
            if task.place == TaskPlace::Worktree {
                let wt = super::worktree_of(&task)?.ok_or_else(|| TaskError::WorktreeMissing {
                    name: task.name.clone(),
                    path: workspace.clone(),
                })?;
                // A task without a branch of record keeps every branch from its commands.
                let own = task.branch.clone().unwrap_or_default();
                sandbox_branches = Some(OtherBranches::new(&wt.common_dir, &own));
                (
                    wt.sandbox_writable(),
                    wt.sandbox_read_only(),
                    wt.sandbox_env(),
                )
            } else {
                (Vec::new(), Vec::new(), Vec::new())
            };
        let folder_turn = (task.place != TaskPlace::Worktree).then(|| locks::FolderTurn {
            data_dir: self.data_dir.clone(),
            folder: task.workspace_path.clone(),
            task: task.name.clone(),
        });
        Ok(Some(Place {
            folder_turn,
            task,
            workspace,
            sandbox_writable,
            sandbox_read_only,
            sandbox_env,
            sandbox_branches,
            command_env,
        }))
    }

    /// Holds task `id`'s place for a session: waits for a slot of the `limit` tasks at once
    /// (`on_wait` says why it waits). A task in the folder itself takes the folder at each of
    /// its agent's tasks ([`Place::folder_turn`], in the engine).
    pub async fn begin(
        &self,
        id: &str,
        limit: u32,
        mut on_wait: impl FnMut(String),
    ) -> Result<Option<Running>, TaskError> {
        let Some(place) = self.place(id).await? else {
            return Ok(None);
        };
        let name = place.task.name.clone();
        let mut held = Vec::new();
        if let Some(running) = locks::take_running(&self.data_dir, id)? {
            held.push(running);
        }
        let slot = locks::wait_for_slot(&self.data_dir, limit, &name, || {
            on_wait(format!(
                "Waiting: {limit} tasks are running, the most at once (Settings › Tasks)."
            ));
        })
        .await?;
        held.push(slot);
        Ok(Some(Running {
            place,
            _locks: held,
        }))
    }

    /// Runs the repository's setup commands in task `id`'s worktree, once, confined at
    /// `workspace-write` with the network on. `on_output` gets what they print. Returns why it
    /// failed (the task can still run; the note says so).
    pub async fn setup(
        &self,
        id: &str,
        config: &TaskConfig,
        sandbox_hidden: &SetupSandbox,
        mut on_output: impl FnMut(&str),
    ) -> Result<Option<String>, TaskError> {
        if config.setup.is_empty() {
            return Ok(None);
        }
        let Some(place) = self.place(id).await? else {
            return Ok(None);
        };
        let failure = match sandbox::availability(SandboxLevel::WorkspaceWrite) {
            sandbox::Availability::Unavailable { reason } => Some(format!(
                "The setup commands did not run: the sandbox is not available here ({reason}). \
                 Run them yourself in {}.",
                place.workspace.display()
            )),
            sandbox::Availability::Available { .. } => {
                let temp = tempfile::Builder::new()
                    .prefix("foreman-setup-")
                    .tempdir()
                    .map_err(super::TaskError::io("create", std::env::temp_dir()))?;
                let mut failure = None;
                for line in &config.setup {
                    let policy = place
                        .network_policy(temp.path().to_path_buf(), sandbox_hidden.hidden.clone());
                    on_output(&format!("$ {line}\n"));
                    let never = tokio_util::sync::CancellationToken::new();
                    let (ok, output) =
                        run_confined(line, &place.workspace, &policy, &place.command_env, &never)
                            .await?
                            .unwrap_or((false, String::new()));
                    on_output(&output);
                    if !ok {
                        failure = Some(format!("The setup command `{line}` failed."));
                        break;
                    }
                }
                failure
            }
        };
        if let Some(why) = &failure {
            let mut task = place.task;
            task.note = Some(match task.note {
                Some(note) => format!("{note}\n{why}"),
                None => why.clone(),
            });
            self.store.update_task(&task).await?;
        }
        Ok(failure)
    }
}

/// Starts `line` with the shell in `dir`, confined to `policy`, with `env` set: its stdout
/// carries stderr too, and everything it starts is in its process tree, ended with it.
pub(crate) fn spawn_confined(
    line: &str,
    dir: &std::path::Path,
    policy: &SandboxPolicy,
    env: &[(String, String)],
) -> Result<(tokio::process::Child, crate::process_tree::ProcessTree), TaskError> {
    let mut std = std::process::Command::new("sh");
    let prepared = crate::process_tree::prepare(&mut std, crate::process_tree::Leftovers::Stop)
        .map_err(TaskError::io("run", dir))?;
    sandbox::confine(&mut std, policy).map_err(|e| TaskError::Git {
        command: line.to_owned(),
        message: format!("cannot confine it: {e}"),
    })?;
    std.arg("-c")
        .arg(format!("exec 2>&1; {line}"))
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    for (k, v) in env {
        std.env(k, v);
    }
    let mut command = tokio::process::Command::from(std);
    let child = command.spawn().map_err(TaskError::io("run", dir))?;
    let tree = crate::process_tree::ProcessTree::of(&child, prepared);
    Ok((child, tree))
}

/// Runs `line` with the shell in `dir`, confined to `policy`; whether it succeeded and what it
/// printed (stdout and stderr together, the last 64 KiB). `None` when `cancel` stopped it (its
/// whole process tree is killed).
pub(crate) async fn run_confined(
    line: &str,
    dir: &std::path::Path,
    policy: &SandboxPolicy,
    env: &[(String, String)],
    cancel: &tokio_util::sync::CancellationToken,
) -> Result<Option<(bool, String)>, TaskError> {
    let (child, tree) = spawn_confined(line, dir, policy, env)?;
    let out = tokio::select! {
        out = child.wait_with_output() => out.map_err(TaskError::io("run", dir))?,
        () = cancel.cancelled() => {
            tree.kill();
            return Ok(None);
        }
    };
    tree.kill();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    const KEEP: usize = 64 * 1024;
    if text.len() > KEEP {
        let mut cut = text.len() - KEEP;
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        text = format!("…\n{}", &text[cut..]);
    }
    Ok(Some((out.status.success(), text)))
}
