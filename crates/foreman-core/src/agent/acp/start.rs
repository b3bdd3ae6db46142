//! Starting an external agent: its process in its sandbox (or outside, when the person chose
//! that for this agent), `initialize` with the client's capabilities (files and terminals,
//! which go through Foreman's tools), then its session in the session's place — loaded again
//! when the agent had one and can load it, so a restarted agent goes on where it was. An agent
//! that offers an asking mode (Claude Code's `default`, Codex's `read-only`, which asks before
//! each edit) is put in it: Foreman's approval mode decides what runs without asking, not the
//! agent's (Codex's own default, "Auto review", lets a model of its own approve).

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::state::{Live, SessionAgent};
use crate::acp::wire::{InitializeResponse, NewSessionResponse, PROTOCOL_VERSION};
use crate::acp::{AcpConnection, AcpError};
use crate::agent::engine::Engine;

/// How long an agent has to answer `initialize` and to open its session.
const START_TIMEOUT: Duration = Duration::from_secs(90);
/// The modes of agents that ask before they edit or run anything, best first.
const ASKING_MODES: &[&str] = &["default", "read-only"];
/// How long an agent has to take its asking mode before the prompt goes anyway.
const MODE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why an agent could not be started; the text is what the person reads.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
    #[error(
        "{agent} was not started: it runs in Foreman's sandbox, which this machine cannot \
         enforce ({reason}). To run it with your full rights, mark it to run outside the \
         sandbox in its settings (`--agent-unsandboxed` for foreman-cli)."
    )]
    NoSandbox { agent: String, reason: String },
    #[error("{agent}: {source}")]
    Acp { agent: String, source: AcpError },
    #[error("{agent}: {source}. It may need you to log in; it offers: {ways}")]
    NeedsLogin {
        agent: String,
        source: AcpError,
        ways: String,
    },
    #[error("{agent} did not answer `{method}` within {} s", START_TIMEOUT.as_secs())]
    Timeout { agent: String, method: String },
}

/// Waits for the answer to `method` and reads it as `T`.
async fn answer<T: serde::de::DeserializeOwned>(
    method: &str,
    rx: oneshot::Receiver<Result<Value, AcpError>>,
) -> Result<T, Result<AcpError, ()>> {
    let value = match tokio::time::timeout(START_TIMEOUT, rx).await {
        Err(_) => return Err(Err(())),
        Ok(Err(_)) => {
            return Err(Ok(AcpError::Exited {
                code: None,
                signal: None,
                stderr: String::new(),
            }));
        }
        Ok(Ok(answer)) => answer.map_err(Ok)?,
    };
    serde_json::from_value(value).map_err(|e| {
        Ok(AcpError::Malformed {
            method: method.to_owned(),
            reason: e.to_string(),
        })
    })
}

/// The logins an agent offers, in a line (`None`: none).
fn logins(init: &InitializeResponse) -> Option<String> {
    let ways: Vec<String> = init
        .auth_methods
        .iter()
        .map(|m| match &m.description {
            Some(d) => format!("{} ({d})", m.name),
            None => m.name.clone(),
        })
        .collect();
    (!ways.is_empty()).then(|| ways.join("; "))
}

impl Engine {
    /// Starts the session's external agent unless it runs already.
    pub(crate) async fn start_agent(&mut self) -> Result<(), StartError> {
        let SessionAgent::External(external) = &self.agent else {
            return Ok(());
        };
        if external.live.is_some() {
            return Ok(());
        }
        let spec = external.spec.clone();
        let agent = spec.name.clone();
        let stored = match (&external.acp_session, self.persist.store()) {
            (None, Some(store)) => match store.session_agent(&self.id).await {
                Ok(stored) => stored
                    .filter(|(name, _)| *name == agent)
                    .and_then(|(_, id)| id),
                Err(e) => {
                    self.store_failed(&e);
                    None
                }
            },
            _ => None,
        };
        if let (Some(id), SessionAgent::External(external)) = (stored, &mut self.agent) {
            external.acp_session = Some(id);
        }
        let policy = if spec.unsandboxed {
            None
        } else {
            for own in spec.own_paths.iter().filter(|p| p.extension().is_none()) {
                // A login folder that is not there yet is made, so the agent can write it.
                let _ = std::fs::create_dir_all(own);
            }
            Some(
                self.oversight
                    .sandbox
                    .for_agent(&self.workspace, &spec.own_paths)
                    .map_err(|reason| StartError::NoSandbox {
                        agent: agent.clone(),
                        reason,
                    })?,
            )
        };
        let acp = |source| StartError::Acp {
            agent: agent.clone(),
            source,
        };
        let (connection, incoming) =
            AcpConnection::start(&spec, &self.workspace, policy.as_ref()).map_err(acp)?;
        let fail = |method: &str, e: Result<AcpError, ()>| match e {
            Ok(source) => acp(source),
            Err(()) => StartError::Timeout {
                agent: agent.clone(),
                method: method.to_owned(),
            },
        };
        let init = connection.request(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_VERSION,
                "clientCapabilities": {
                    "fs": {"readTextFile": true, "writeTextFile": true},
                    "terminal": true
                },
                "clientInfo": {"name": "foreman", "title": "Foreman", "version": env!("CARGO_PKG_VERSION")}
            }),
        );
        let init: InitializeResponse = answer("initialize", init)
            .await
            .map_err(|e| fail("initialize", e))?;
        let known = match &self.agent {
            SessionAgent::External(external) => external.acp_session.clone(),
            SessionAgent::Foreman => None,
        };
        let cwd = self.workspace.display().to_string();
        let loaded = match &known {
            Some(id) if init.agent_capabilities.load_session => {
                let rx = connection.request(
                    "session/load",
                    json!({"sessionId": id, "cwd": cwd, "mcpServers": []}),
                );
                answer::<NewSessionResponse>("session/load", rx)
                    .await
                    .map(|mut r| {
                        r.session_id.clone_from(id);
                        r
                    })
                    .ok()
            }
            _ => None,
        };
        let session = match loaded {
            Some(session) => session,
            None => {
                let rx = connection.request("session/new", json!({"cwd": cwd, "mcpServers": []}));
                answer::<NewSessionResponse>("session/new", rx)
                    .await
                    .map_err(|e| match (fail("session/new", e), logins(&init)) {
                        (StartError::Acp { agent, source }, Some(ways)) => StartError::NeedsLogin {
                            agent,
                            source,
                            ways,
                        },
                        (other, _) => other,
                    })?
            }
        };
        let mut took = None;
        if let Some(modes) = &session.modes
            && let Some(asking) = ASKING_MODES
                .iter()
                .find(|m| modes.available_modes.iter().any(|a| a.id == **m))
            && modes.current_mode_id != *asking
        {
            // Waited for, so the first prompt runs in it; an agent that refuses (or takes too
            // long) keeps its own mode, and its requests still go through Foreman's policy.
            let answer = connection.request(
                "session/set_mode",
                json!({"sessionId": session.session_id, "modeId": asking}),
            );
            match tokio::time::timeout(MODE_TIMEOUT, answer).await {
                Ok(Ok(Ok(_))) => took = Some(*asking),
                other => tracing::warn!(?other, mode = asking, "the agent kept its own mode"),
            }
        }
        tracing::info!(
            agent = %agent,
            version = ?init.agent_info.as_ref().and_then(|i| i.version.clone()),
            pid = ?connection.pid(),
            "external agent started"
        );
        if let Some(store) = self.persist.store()
            && let Err(e) = store
                .set_session_agent(&self.id, &agent, Some(&session.session_id))
                .await
        {
            tracing::warn!(%e, "the agent's session id was not stored");
        }
        let SessionAgent::External(external) = &mut self.agent else {
            return Ok(());
        };
        external.acp_session = Some(session.session_id);
        external.modes = session.modes;
        external.config_options = session.config_options;
        if let Some(mode) = took {
            external.took_mode(mode);
        }
        external.capabilities = init.agent_capabilities;
        external.live = Some(Live {
            connection,
            incoming: Some(incoming),
        });
        // What the person chose of its settings before it was started again.
        self.choose_again().await;
        self.emit_agent_settings();
        Ok(())
    }
}
