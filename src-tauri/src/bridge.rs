//! The event bridge: one running engine session per conversation, its events carried to the UI
//! over a `tauri::ipc::Channel` (ordered, made for volume, unlike `emit`), its ops taken from the
//! UI through the `send_op` command.
//!
//! A session outlives the webview that started it: if the UI reloads, `attach` gives the session
//! a new channel and asks the engine for a snapshot, so nothing running is lost.
//!
//! Each session belongs to a window (the one that started it, or last attached to it) and works
//! in a workspace folder: closing a window ends its sessions, and an MCP hub stays while a
//! session works in its folder.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use foreman_protocol::records::SessionActivity;
use foreman_protocol::{Event, EventMsg, Op};
use tauri::AppHandle;
use tauri::ipc::Channel;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// Where a session's events go: the current webview channel.
type Sink = Arc<std::sync::Mutex<Channel<Vec<Event>>>>;

/// What a session is doing, kept by its pump from the events it carries.
type Tracked = Arc<std::sync::Mutex<crate::activity::Activity>>;

/// The label of the window a session belongs to (its pump reads it to decide on notifications).
type Owner = Arc<std::sync::Mutex<String>>;

struct LiveSession {
    ops: UnboundedSender<Op>,
    sink: Sink,
    /// The provider it was started with (`settings::provider_identity`): a model chosen later
    /// in Settings reaches it only when it is the same provider.
    provider: String,
    activity: Tracked,
    window: Owner,
    workspace: PathBuf,
}

/// The running sessions, by id (a session's pump removes it when it ends).
type Live = Arc<std::sync::Mutex<HashMap<String, LiveSession>>>;

/// The running sessions.
#[derive(Default)]
pub struct SessionHub {
    live: Live,
}

impl SessionHub {
    /// Starts forwarding the events of a freshly spawned session to `channel`.
    pub fn add(&self, app: &AppHandle, started: Started, channel: Channel<Vec<Event>>) {
        let sink: Sink = Arc::new(std::sync::Mutex::new(channel));
        let activity = Tracked::default();
        let window: Owner = Arc::new(std::sync::Mutex::new(started.window));
        if let Ok(mut live) = self.live.lock() {
            live.insert(
                started.session_id.clone(),
                LiveSession {
                    ops: started.ops,
                    sink: sink.clone(),
                    provider: started.provider,
                    activity: Arc::clone(&activity),
                    window: Arc::clone(&window),
                    workspace: started.workspace,
                },
            );
        }
        let ended = Ended {
            live: Arc::clone(&self.live),
            session_id: started.session_id,
        };
        let parts = Pumped {
            sink,
            activity,
            window,
            task_folder: started.task_folder,
            _running: started.running,
        };
        tauri::async_runtime::spawn(pump(app.clone(), ended, started.events, parts));
    }

    /// What the running session `session_id` is doing; `None` when it is not running.
    pub fn activity(&self, session_id: &str) -> Option<SessionActivity> {
        let live = self.live.lock().ok()?;
        let session = live.get(session_id)?;
        session.activity.lock().ok().map(|a| a.view())
    }

    /// What each running session is doing, by id.
    pub fn activities(&self) -> HashMap<String, SessionActivity> {
        let Ok(live) = self.live.lock() else {
            return HashMap::new();
        };
        live.iter()
            .filter_map(|(id, s)| s.activity.lock().ok().map(|a| (id.clone(), a.view())))
            .collect()
    }

    /// Points a running session at a new channel of window `window` (the UI reloaded or reopened
    /// it; the session now belongs to that window) and asks for a snapshot on it. False when the
    /// session is not running.
    pub fn attach(&self, session_id: &str, window: &str, channel: Channel<Vec<Event>>) -> bool {
        let Ok(live) = self.live.lock() else {
            return false;
        };
        let Some(session) = live.get(session_id) else {
            return false;
        };
        if let Ok(mut sink) = session.sink.lock() {
            *sink = channel;
        }
        if let Ok(mut owner) = session.window.lock() {
            window.clone_into(&mut owner);
        }
        session.ops.send(Op::Snapshot).is_ok()
    }

    /// Sends `op` to a running session. False when it is not running.
    pub fn send(&self, session_id: &str, op: Op) -> bool {
        self.live
            .lock()
            .ok()
            .and_then(|live| live.get(session_id).map(|s| s.ops.send(op).is_ok()))
            .unwrap_or(false)
    }

    /// Sends `op` to every running session.
    pub fn send_all(&self, op: Op) {
        if let Ok(live) = self.live.lock() {
            for session in live.values() {
                let _ = session.ops.send(op.clone());
            }
        }
    }

    /// Sends `op` to every running session started with `provider`; how many there were.
    pub fn send_to_provider(&self, provider: &str, op: &Op) -> usize {
        let Ok(live) = self.live.lock() else {
            return 0;
        };
        live.values()
            .filter(|s| s.provider == provider)
            .filter(|s| s.ops.send(op.clone()).is_ok())
            .count()
    }

    /// Asks the sessions of window `window` to shut down (it closed); how many there were.
    pub fn shutdown_window(&self, window: &str) -> usize {
        let Ok(live) = self.live.lock() else {
            return 0;
        };
        live.values()
            .filter(|s| s.window.lock().is_ok_and(|w| *w == window))
            .filter(|s| s.ops.send(Op::Shutdown).is_ok())
            .count()
    }

    /// The folders that running sessions of windows other than `closing` work in.
    pub fn workspaces_besides(&self, closing: &str) -> HashSet<PathBuf> {
        let Ok(live) = self.live.lock() else {
            return HashSet::new();
        };
        live.values()
            .filter(|s| s.window.lock().is_ok_and(|w| *w != closing))
            .map(|s| s.workspace.clone())
            .collect()
    }

    /// Asks every session to shut down (the app is closing).
    pub fn shutdown_all(&self) {
        if let Ok(live) = self.live.lock() {
            for session in live.values() {
                let _ = session.ops.send(Op::Shutdown);
            }
        }
    }
}

/// A freshly spawned session, handed to `SessionHub::add`.
pub struct Started {
    pub session_id: String,
    /// Its provider (`settings::provider_identity`).
    pub provider: String,
    /// The label of the window that started it.
    pub window: String,
    /// The workspace folder it works in.
    pub workspace: PathBuf,
    /// For a task: the folder the user opened (its window hears `tasks-changed` with it).
    pub task_folder: Option<String>,
    /// For a task: its place, held until the session ends.
    pub running: Option<foreman_core::tasks::Running>,
    pub ops: UnboundedSender<Op>,
    pub events: UnboundedReceiver<Event>,
}

/// What a pump carries events through and keeps up to date.
struct Pumped {
    sink: Sink,
    activity: Tracked,
    window: Owner,
    task_folder: Option<String>,
    /// A task's slot and locks, released when the pump ends.
    _running: Option<foreman_core::tasks::Running>,
}

/// What a pump does when its session ends: the session leaves the hub.
struct Ended {
    live: Live,
    session_id: String,
}

impl Ended {
    fn remove(&self) {
        if let Ok(mut live) = self.live.lock() {
            live.remove(&self.session_id);
        }
    }
}

/// Longest an event waits to be batched with the ones after it.
const BATCH_WINDOW: std::time::Duration = std::time::Duration::from_millis(8);
/// Most events in one channel message.
const BATCH_MAX: usize = 1024;

/// Forwards events until the session ends, in batches: every channel message costs the webview a
/// script evaluation, so a model streaming thousands of small deltas would otherwise keep its
/// main thread busy. A batch is sent at most `BATCH_WINDOW` after its first event.
async fn pump(app: AppHandle, ended: Ended, mut events: UnboundedReceiver<Event>, parts: Pumped) {
    let Pumped {
        sink,
        activity,
        window,
        task_folder,
        _running,
    } = parts;
    let mut open = true;
    let mut notices = crate::notify::ApprovalNotices::default();
    while open {
        let Some(first) = events.recv().await else {
            break;
        };
        let mut batch = vec![first];
        let deadline = tokio::time::Instant::now() + BATCH_WINDOW;
        while batch.len() < BATCH_MAX {
            match tokio::time::timeout_at(deadline, events.recv()).await {
                Ok(Some(event)) => batch.push(event),
                Ok(None) => {
                    open = false;
                    break;
                }
                Err(_) => break,
            }
        }
        for event in &batch {
            if let Some((tool, reason)) = notices.news(&event.msg) {
                let owner = window.lock().map(|w| w.clone()).unwrap_or_default();
                crate::notify::approval_waiting(&app, &owner, tool, reason);
            }
        }
        if let Ok(mut activity) = activity.lock() {
            let before = activity.view();
            for event in &batch {
                activity.apply(&event.msg);
            }
            // A task's window shows its state (running, waiting for you, ready).
            if let Some(folder) = &task_folder
                && activity.view() != before
            {
                crate::task_events::changed(&app, folder);
            }
        }
        if batch
            .iter()
            .any(|e| matches!(e.msg, EventMsg::ShutdownComplete))
        {
            open = false;
        }
        let sent = match sink.lock() {
            Ok(channel) => channel.send(batch),
            Err(_) => Ok(()),
        };
        if let Err(error) = sent {
            // The webview is gone (reloading); the session goes on and a new channel will attach.
            log::debug!(
                "session {}: events not delivered: {error}",
                ended.session_id
            );
        }
    }
    ended.remove();
    drop(_running);
    if let Some(folder) = &task_folder {
        crate::task_events::changed(&app, folder);
    }
    log::info!("session {} ended", ended.session_id);
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc::unbounded_channel;

    /// Puts a running session of `window` in `workspace` in the hub, as `add` does without its
    /// pump; the receiver gets the ops sent to it.
    fn running(hub: &SessionHub, id: &str, window: &str, workspace: &str) -> UnboundedReceiver<Op> {
        let (ops, received) = unbounded_channel();
        let session = LiveSession {
            ops,
            sink: Arc::new(std::sync::Mutex::new(Channel::new(|_| Ok(())))),
            provider: "anthropic".into(),
            activity: Tracked::default(),
            window: Arc::new(std::sync::Mutex::new(window.to_owned())),
            workspace: PathBuf::from(workspace),
        };
        hub.live.lock().unwrap().insert(id.to_owned(), session);
        received
    }

    #[test]
    fn closing_a_window_ends_only_its_own_sessions() {
        let hub = SessionHub::default();
        let mut alpha = running(&hub, "s1", "main", "/w/alpha");
        let mut beta = running(&hub, "s2", "window-2", "/w/beta");
        assert_eq!(hub.shutdown_window("window-2"), 1);
        assert!(matches!(beta.try_recv(), Ok(Op::Shutdown)));
        assert!(alpha.try_recv().is_err(), "main's session goes on");
        assert_eq!(
            hub.workspaces_besides("window-2"),
            HashSet::from([PathBuf::from("/w/alpha")])
        );
        assert_eq!(hub.shutdown_window("window-9"), 0);
    }

    #[test]
    fn a_session_opened_in_another_window_moves_to_it() {
        let hub = SessionHub::default();
        let mut session = running(&hub, "s1", "main", "/w/alpha");
        assert!(hub.attach("s1", "window-2", Channel::new(|_| Ok(()))));
        assert!(matches!(session.try_recv(), Ok(Op::Snapshot)));
        // Closing the window it came from leaves it running; closing its new window ends it.
        assert_eq!(hub.shutdown_window("main"), 0);
        assert!(
            hub.workspaces_besides("main")
                .contains(std::path::Path::new("/w/alpha"))
        );
        assert_eq!(hub.shutdown_window("window-2"), 1);
        assert!(!hub.attach("gone", "main", Channel::new(|_| Ok(()))));
    }
}
