//! The event bridge: one running engine session per conversation, its events carried to the UI
//! over a `tauri::ipc::Channel` (ordered, made for volume, unlike `emit`), its ops taken from the
//! UI through the `send_op` command.
//!
//! A session outlives the webview that started it: if the UI reloads, `attach` gives the session
//! a new channel and asks the engine for a snapshot, so nothing running is lost.

use std::collections::HashMap;
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

struct LiveSession {
    ops: UnboundedSender<Op>,
    sink: Sink,
    /// The provider it was started with (`settings::provider_identity`): a model chosen later
    /// in Settings reaches it only when it is the same provider.
    provider: String,
    activity: Tracked,
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
    pub fn add(
        &self,
        app: &AppHandle,
        session_id: String,
        provider: String,
        ops: UnboundedSender<Op>,
        events: UnboundedReceiver<Event>,
        channel: Channel<Vec<Event>>,
    ) {
        let sink: Sink = Arc::new(std::sync::Mutex::new(channel));
        let activity = Tracked::default();
        if let Ok(mut live) = self.live.lock() {
            live.insert(
                session_id.clone(),
                LiveSession {
                    ops,
                    sink: sink.clone(),
                    provider,
                    activity: Arc::clone(&activity),
                },
            );
        }
        let ended = Ended {
            live: Arc::clone(&self.live),
            session_id,
        };
        tauri::async_runtime::spawn(pump(app.clone(), ended, events, sink, activity));
    }

    /// What the running session `session_id` is doing; `None` when it is not running.
    pub fn activity(&self, session_id: &str) -> Option<SessionActivity> {
        let live = self.live.lock().ok()?;
        let session = live.get(session_id)?;
        session.activity.lock().ok().map(|a| a.view())
    }

    /// Points a running session at a new channel (the UI reloaded or reopened it) and asks for a
    /// snapshot on it. False when the session is not running.
    pub fn attach(&self, session_id: &str, channel: Channel<Vec<Event>>) -> bool {
        let Ok(live) = self.live.lock() else {
            return false;
        };
        let Some(session) = live.get(session_id) else {
            return false;
        };
        if let Ok(mut sink) = session.sink.lock() {
            *sink = channel;
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

    /// Asks every session to shut down (the app is closing).
    pub fn shutdown_all(&self) {
        if let Ok(live) = self.live.lock() {
            for session in live.values() {
                let _ = session.ops.send(Op::Shutdown);
            }
        }
    }
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
async fn pump(
    app: AppHandle,
    ended: Ended,
    mut events: UnboundedReceiver<Event>,
    sink: Sink,
    activity: Tracked,
) {
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
                crate::notify::approval_waiting(&app, tool, reason);
            }
        }
        if let Ok(mut activity) = activity.lock() {
            for event in &batch {
                activity.apply(&event.msg);
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
    log::info!("session {} ended", ended.session_id);
}
