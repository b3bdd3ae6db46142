//! A task's run button: the repository's `run` command (a dev server, say) started in the task's
//! worktree, confined at `workspace-write` with the network on, with `FOREMAN_PORT` and
//! `FOREMAN_TASK` set; one at a time per task, stopped with its whole process tree. The command
//! is the one the user's checkout names, never the worktree's copy (the agent may have changed
//! that). What it prints is kept (the last 64 KiB) for the task's panel.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio::io::AsyncReadExt;
use tokio_util::sync::CancellationToken;

use crate::protocol::{SandboxLevel, TaskRun};
use crate::sandbox;

use super::Tasks;
use super::config::TaskConfig;
use super::error::TaskError;
use super::place::spawn_confined;
use super::repo::Repo;

/// What is kept of a run's output.
const KEEP: usize = 64 * 1024;

/// The runs of this process, by task id.
pub(crate) type Runs = Arc<Mutex<HashMap<String, RunState>>>;

#[derive(Debug)]
pub(crate) struct RunState {
    view: TaskRun,
    stop: CancellationToken,
}

fn keep_tail(text: &mut String) {
    if text.len() > KEEP {
        let mut cut = text.len() - KEEP;
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        text.replace_range(..cut, "");
    }
}

impl Tasks {
    /// The run command of task `id`'s repository (from the user's checkout), if it has one.
    pub fn run_command(&self, workspace_path: &str) -> Option<String> {
        let repo = Repo::at(Path::new(workspace_path)).ok()??;
        TaskConfig::load(&repo.root).ok()?.run
    }

    /// Starts task `id`'s run command; `hidden` are the sandbox's hidden paths. Refused while it
    /// already runs.
    pub async fn start_run(&self, id: &str, hidden: Vec<PathBuf>) -> Result<TaskRun, TaskError> {
        if self.run_view(id).is_some_and(|r| r.running) {
            return Err(TaskError::Review(
                "it is running already; stop it first".into(),
            ));
        }
        let place = self
            .place(id)
            .await?
            .ok_or_else(|| TaskError::NoSuchTask(id.to_owned()))?;
        let command = self
            .run_command(&place.task.workspace_path)
            .ok_or_else(|| TaskError::BadConfig("it names no `run` command for tasks".into()))?;
        if !sandbox::availability(SandboxLevel::WorkspaceWrite).is_available() {
            return Err(TaskError::Review(
                "the run command runs confined, and the sandbox is not available here".into(),
            ));
        }
        let temp = std::env::temp_dir().join(format!("foreman-run-{}", place.task.name));
        std::fs::create_dir_all(&temp).map_err(TaskError::io("create", &temp))?;
        let policy = place.network_policy(temp, hidden);
        let (mut child, tree) =
            spawn_confined(&command, &place.workspace, &policy, &place.command_env)?;
        let stop = CancellationToken::new();
        let view = TaskRun {
            command,
            running: true,
            output: String::new(),
            exit_code: None,
        };
        if let Ok(mut runs) = self.runs.lock() {
            runs.insert(
                id.to_owned(),
                RunState {
                    view: view.clone(),
                    stop: stop.clone(),
                },
            );
        }
        let runs = Arc::clone(&self.runs);
        let key = id.to_owned();
        let mut stdout = child.stdout.take();
        tokio::spawn(async move {
            let mut buf = vec![0u8; 8192];
            loop {
                let read = async {
                    match stdout.as_mut() {
                        Some(out) => out.read(&mut buf).await.unwrap_or(0),
                        None => 0,
                    }
                };
                let n = tokio::select! {
                    n = read => n,
                    () = stop.cancelled() => 0,
                };
                if n == 0 {
                    break;
                }
                if let Ok(mut runs) = runs.lock()
                    && let Some(run) = runs.get_mut(&key)
                {
                    run.view
                        .output
                        .push_str(&String::from_utf8_lossy(&buf[..n]));
                    keep_tail(&mut run.view.output);
                }
            }
            tree.kill();
            let code = child.wait().await.ok().and_then(|s| s.code());
            if let Ok(mut runs) = runs.lock()
                && let Some(run) = runs.get_mut(&key)
            {
                run.view.running = false;
                run.view.exit_code = code;
            }
        });
        Ok(view)
    }

    /// Stops task `id`'s run (its whole process tree); `false` when none runs.
    pub fn stop_run(&self, id: &str) -> bool {
        let Ok(runs) = self.runs.lock() else {
            return false;
        };
        match runs.get(id) {
            Some(run) if run.view.running => {
                run.stop.cancel();
                true
            }
            _ => false,
        }
    }

    /// Task `id`'s run as its panel shows it (`None`: it never ran here).
    pub fn run_view(&self, id: &str) -> Option<TaskRun> {
        self.runs.lock().ok()?.get(id).map(|r| r.view.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::TaskPlace;
    use crate::store::Store;
    use crate::tasks::NewTask;
    use crate::tasks::testing::{commit_all, git_repo};

    #[tokio::test]
    async fn the_checkouts_run_command_runs_in_the_worktree_until_stopped() {
        if !sandbox::availability(SandboxLevel::WorkspaceWrite).is_available() {
            return; // says so in the sandbox's own tests
        }
        let repo = git_repo();
        std::fs::create_dir_all(repo.path().join(".foreman")).unwrap();
        std::fs::write(
            repo.path().join(".foreman/worktree.toml"),
            "run = \"echo serving on $FOREMAN_PORT in $(basename $PWD); sleep 30\"\nports = 2\n",
        )
        .unwrap();
        commit_all(repo.path(), "run");
        let data = tempfile::tempdir().unwrap();
        let tasks = Tasks::new(
            Store::open(&data.path().join("f.db")).await.unwrap(),
            data.path(),
        );
        let new = NewTask {
            place: TaskPlace::Worktree,
            name: Some("serve".into()),
            base: None,
            prompt: String::new(),
            agent: None,
        };
        let task = tasks.start(repo.path(), new).await.unwrap().task;
        // The agent changes its own copy of the command; the checkout's is the one run.
        std::fs::write(
            Path::new(&task.path).join(".foreman/worktree.toml"),
            "run = \"echo changed by the agent\"\n",
        )
        .unwrap();
        let started = tasks.start_run(&task.id, Vec::new()).await.unwrap();
        assert!(started.command.starts_with("echo serving"));
        let mut output = String::new();
        for _ in 0..100 {
            output = tasks.run_view(&task.id).unwrap().output;
            if output.contains("serving") {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(output.trim(), "serving on 41000 in serve");
        assert!(
            tasks.start_run(&task.id, Vec::new()).await.is_err(),
            "one at a time"
        );
        assert!(tasks.stop_run(&task.id));
        for _ in 0..100 {
            if !tasks.run_view(&task.id).unwrap().running {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(!tasks.run_view(&task.id).unwrap().running);
    }
}
