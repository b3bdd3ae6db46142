//! Starting a task: where it can work in a folder ([`Tasks::places`]), and making its session,
//! its worktree (with the repository's files to copy and its ports) and its row
//! ([`Tasks::start`]). A stale git worktree entry found on the way is pruned and said.

use std::path::Path;

use crate::protocol::{TaskPlace, TaskPlaces};
use crate::store::{TaskLife, TaskRow};

use super::config::{FIRST_PORT, TaskConfig, copy_files};
use super::error::TaskError;
use super::place::SetupSandbox;
use super::repo::Repo;
use super::worktree::{Worktree, prune};
use super::{Tasks, locks, name};
use crate::store::now_ms;

/// What the user asked for.
#[derive(Debug, Clone)]
pub struct NewTask {
    pub place: TaskPlace,
    /// The task's name (`None`: made from the prompt).
    pub name: Option<String>,
    /// The branch or commit to start from (`None`: the checkout's current branch).
    pub base: Option<String>,
    /// What the task is asked to do (names it when no name is given).
    pub prompt: String,
    /// The external agent that does its work (`None`: Foreman's own).
    pub agent: Option<String>,
}

impl NewTask {
    /// A task the user starts from a window: no prompt yet, and a blank name or base is none.
    pub fn in_place(place: TaskPlace, name: Option<String>, base: Option<String>) -> Self {
        let given = |text: Option<String>| text.filter(|t| !t.trim().is_empty());
        Self {
            place,
            name: given(name),
            base: given(base),
            prompt: String::new(),
            agent: None,
        }
    }

    /// The same task, its work done by the external agent `agent` (`None`: Foreman's own).
    pub fn by(mut self, agent: Option<String>) -> Self {
        self.agent = agent.filter(|a| !a.trim().is_empty());
        self
    }
}

/// A task just started, and what the user should know about how it went.
#[derive(Debug, Clone)]
pub struct StartedTask {
    pub task: TaskRow,
    pub warnings: Vec<String>,
    /// The repository's task configuration (setup commands, check, run, ports).
    pub config: TaskConfig,
}

impl Tasks {
    /// Where a new task can work in `folder`.
    pub fn places(&self, folder: &Path) -> Result<TaskPlaces, TaskError> {
        let key = folder.display().to_string();
        let folder_busy = match locks::take_folder(&self.data_dir, &key, "")? {
            Ok(_free) => None,
            Err(holder) => Some(format!(
                "the task {holder} is working in this folder; a second one there waits until \
                 it finishes (a worktree does not)"
            )),
        };
        Ok(match Repo::at(folder)? {
            Some(repo) => TaskPlaces {
                worktree: true,
                why_not: None,
                current: repo.current_branch()?,
                branches: repo.branches()?,
                folder_busy,
            },
            None => TaskPlaces {
                worktree: false,
                why_not: Some(
                    "This folder is not a git repository with a commit, so tasks work in the \
                     folder itself, one at a time."
                        .into(),
                ),
                current: None,
                branches: Vec::new(),
                folder_busy,
            },
        })
    }

    /// Starts a task ([`Self::start`]) and runs the repository's setup in it once
    /// ([`Self::setup`], confined, `hidden` hidden), with no one to show its output to: a setup
    /// that failed is the task's note, one that could not run is logged, and the task is
    /// started either way. Returns the task's id.
    pub async fn start_set_up(
        &self,
        folder: &Path,
        new: NewTask,
        hidden: Vec<std::path::PathBuf>,
    ) -> Result<String, TaskError> {
        let started = self.start(folder, new).await?;
        let sandbox = SetupSandbox { hidden };
        let id = started.task.id;
        if let Err(error) = self.setup(&id, &started.config, &sandbox, |_| {}).await {
            tracing::warn!(%error, task = %started.task.name, "the setup did not run");
        }
        Ok(id)
    }

    /// Starts a task in `folder` (the folder the user opened, as the store names it): its
    /// session and row, and for a worktree the worktree itself.
    pub async fn start(&self, folder: &Path, new: NewTask) -> Result<StartedTask, TaskError> {
        let key = folder.display().to_string();
        let existing: Vec<String> = self
            .store
            .tasks(&key)
            .await?
            .into_iter()
            .map(|t| t.name)
            .collect();
        let now = now_ms();
        let mut warnings = Vec::new();
        let (task_name, base, base_commit, path, branch, config) = match new.place {
            TaskPlace::Folder => {
                let base = match Repo::at(folder)? {
                    Some(repo) => repo.current_branch()?.unwrap_or(repo.commit_of("HEAD")?),
                    None => String::new(),
                };
                let task_name = match &new.name {
                    Some(given) => name::check(given)?,
                    None => name::unique(&name::from_prompt(&new.prompt), |n| {
                        existing.iter().any(|e| e == n)
                    }),
                };
                if existing.contains(&task_name) {
                    return Err(TaskError::NameTaken(task_name));
                }
                (
                    task_name,
                    base,
                    None,
                    folder.to_path_buf(),
                    None,
                    TaskConfig::default(),
                )
            }
            TaskPlace::Worktree => {
                let repo = Repo::at(folder)?.ok_or_else(|| TaskError::NotARepository {
                    path: folder.to_path_buf(),
                })?;
                for line in prune(&repo)? {
                    warnings.push(format!("Pruned a stale git worktree entry: {line}"));
                }
                let base = match &new.base {
                    Some(b) => b.clone(),
                    None => match repo.current_branch()? {
                        Some(branch) => branch,
                        None => repo.commit_of("HEAD")?,
                    },
                };
                let base_commit = repo.commit_of(&base)?;
                let home = self.worktrees_of(&repo.root);
                let taken = |n: &str| -> bool {
                    existing.iter().any(|e| e == n)
                        || home.join(n).exists()
                        || repo.has_branch(&format!("foreman/{n}")).unwrap_or(true)
                };
                let task_name = match &new.name {
                    Some(given) => {
                        let given = name::check(given)?;
                        if taken(&given) {
                            return Err(TaskError::NameTaken(given));
                        }
                        given
                    }
                    None => name::unique(&name::from_prompt(&new.prompt), taken),
                };
                let path = home.join(&task_name);
                let branch = format!("foreman/{task_name}");
                let (_wt, warning) = Worktree::create(&repo, &path, &branch, &base_commit)?;
                warnings.extend(warning);
                let config = match TaskConfig::load(&repo.root) {
                    Ok(config) => config,
                    Err(e) => {
                        warnings.push(e.to_string());
                        TaskConfig::default()
                    }
                };
                let copied = copy_files(&repo.root, &path, &config.copy)?;
                if !copied.is_empty() {
                    let names: Vec<String> =
                        copied.iter().map(|p| p.display().to_string()).collect();
                    warnings.push(format!("Copied from your checkout: {}", names.join(", ")));
                }
                (
                    task_name,
                    base,
                    Some(base_commit),
                    path,
                    Some(branch),
                    config,
                )
            }
        };
        let port = match config.ports {
            0 => None,
            block => Some(self.free_port(block).await?),
        };
        let session = self.store.create_session(&key, now).await?;
        if let Some(agent) = &new.agent {
            self.store
                .set_session_agent(&session.id, agent, None)
                .await?;
        }
        if !new.prompt.trim().is_empty() {
            self.store
                .rename_session(&session.id, &crate::store::title_from_message(&new.prompt))
                .await?;
        }
        let task = TaskRow {
            id: session.id,
            workspace_path: key,
            name: task_name,
            place: new.place,
            path: path.display().to_string(),
            branch,
            base,
            base_commit,
            state: TaskLife::Active,
            merge: None,
            merge_at: None,
            note: (!warnings.is_empty()).then(|| warnings.join("\n")),
            port,
            trash_ref: None,
            discarded_at: None,
            created_at: now,
            updated_at: now,
        };
        self.store.insert_task(&task).await?;
        Ok(StartedTask {
            task,
            warnings,
            config,
        })
    }

    /// The first port of a free block of `block` ports.
    async fn free_port(&self, block: u16) -> Result<i64, TaskError> {
        let used = self.store.ports_in_use().await?;
        let block = i64::from(block);
        let mut port = i64::from(FIRST_PORT);
        while used.iter().any(|&p| p < port + block && port < p + block) {
            port += block;
        }
        Ok(port)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::tasks::testing::git_repo;

    async fn tasks() -> (Tasks, tempfile::TempDir) {
        let data = tempfile::tempdir().unwrap();
        let store = Store::open(&data.path().join("f.db")).await.unwrap();
        (Tasks::new(store, data.path()), data)
    }

    fn new(prompt: &str) -> NewTask {
        NewTask {
            place: TaskPlace::Worktree,
            name: None,
            base: None,
            prompt: prompt.into(),
            agent: None,
        }
    }

    #[tokio::test]
    async fn a_worktree_task_gets_its_own_branch_files_and_ports() {
        let repo = git_repo();
        std::fs::create_dir_all(repo.path().join(".foreman")).unwrap();
        std::fs::write(
            repo.path().join(".foreman/worktree.toml"),
            "copy = [\".env\"]\nports = 10\n",
        )
        .unwrap();
        std::fs::write(repo.path().join(".gitignore"), ".env\n").unwrap();
        crate::tasks::testing::commit_all(repo.path(), "config");
        std::fs::write(repo.path().join(".env"), "SECRET=1\n").unwrap();
        let (tasks, _data) = tasks().await;
        let one = tasks
            .start(repo.path(), new("Fix the login"))
            .await
            .unwrap();
        let two = tasks
            .start(repo.path(), new("Fix the login"))
            .await
            .unwrap();
        assert_eq!(one.task.name, "fix-the-login");
        assert_eq!(two.task.name, "fix-the-login-2");
        assert_eq!(one.task.branch.as_deref(), Some("foreman/fix-the-login"));
        assert_eq!(one.task.base, "main");
        let path = Path::new(&one.task.path);
        assert!(
            !path.starts_with(repo.path()),
            "the worktree lives outside the repository"
        );
        assert_eq!(
            std::fs::read_to_string(path.join(".env")).unwrap(),
            "SECRET=1\n"
        );
        assert_eq!(one.task.port, Some(41000));
        assert_eq!(two.task.port, Some(41010));
        let session = tasks.store().session(&one.task.id).await.unwrap().unwrap();
        assert_eq!(session.workspace_path, repo.path().display().to_string());
        assert_eq!(session.title, "Fix the login");
        let e = tasks
            .start(
                repo.path(),
                NewTask {
                    name: Some("fix-the-login".into()),
                    ..new("x")
                },
            )
            .await
            .unwrap_err();
        assert!(matches!(e, TaskError::NameTaken(_)), "{e}");
    }

    #[tokio::test]
    async fn a_folder_without_git_has_no_worktree_and_says_why() {
        let folder = tempfile::tempdir().unwrap();
        let (tasks, _data) = tasks().await;
        let places = tasks.places(folder.path()).unwrap();
        assert!(!places.worktree);
        assert!(places.why_not.unwrap().contains("not a git repository"));
        let e = tasks.start(folder.path(), new("x")).await.unwrap_err();
        assert!(e.to_string().contains("not a git repository"), "{e}");
        let folder_task = tasks
            .start(
                folder.path(),
                NewTask {
                    place: TaskPlace::Folder,
                    ..new("do it")
                },
            )
            .await
            .unwrap();
        assert_eq!(folder_task.task.path, folder.path().display().to_string());
    }
}
