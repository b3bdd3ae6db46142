//! What an external agent offers beside the composer: its settings (ACP's session config
//! options — its model, its own mode, its reasoning level — or, from an agent that offers no
//! options, its modes as one setting) and its own `/` commands. They are sent to the front end
//! as [`EventMsg::AgentSettings`] when the agent starts and each time it changes them; the
//! person's choice goes to the agent (`session/set_config_option`, or `session/set_mode` for a
//! mode), and is chosen again when the agent is started again.
//!
//! An agent's own mode is the agent's business: whatever it is, the agent's process stays in
//! its sandbox, its changes are checkpointed, and the requests it makes still go through
//! Foreman's rules and approval mode.

use std::time::Duration;

use serde_json::{Value, json};

use super::state::{External, SessionAgent};
use crate::acp::wire::{AvailableCommand, ConfigOption, SessionModes};
use crate::agent::engine::Engine;
use crate::protocol::{
    AgentChoice, AgentSetting, AgentSettingKind, EventMsg, SlashEntry, SlashKind,
};

/// How long an agent has to take a setting.
const SET_TIMEOUT: Duration = Duration::from_secs(10);
/// The id of the one setting made of an agent's modes (when it offers no config options).
const MODES_ID: &str = "mode";

/// The agent's settings as the composer shows them: its config options, or else its modes.
pub(crate) fn settings_of(options: &[Value], modes: Option<&SessionModes>) -> Vec<AgentSetting> {
    let read: Vec<AgentSetting> = options
        .iter()
        .filter_map(ConfigOption::read)
        .map(|option| {
            let choices = option
                .values()
                .into_iter()
                .filter_map(|v| {
                    let value = v.value?;
                    Some(AgentChoice {
                        name: if v.name.is_empty() {
                            value.clone()
                        } else {
                            v.name
                        },
                        value,
                        description: v.description,
                    })
                })
                .collect();
            AgentSetting {
                kind: match option.category.as_deref() {
                    Some("mode") => AgentSettingKind::Mode,
                    Some("model") => AgentSettingKind::Model,
                    Some("thought_level") => AgentSettingKind::ThoughtLevel,
                    _ => AgentSettingKind::Other,
                },
                name: if option.name.is_empty() {
                    option.id.clone()
                } else {
                    option.name
                },
                id: option.id,
                description: option.description,
                current: option.current_value.as_str().unwrap_or_default().to_owned(),
                choices,
            }
        })
        .filter(|s: &AgentSetting| !s.choices.is_empty())
        .collect();
    if !read.is_empty() || options.iter().any(|o| ConfigOption::read(o).is_some()) {
        return read;
    }
    match modes {
        Some(modes) if !modes.available_modes.is_empty() => vec![AgentSetting {
            id: MODES_ID.into(),
            name: "Mode".into(),
            description: None,
            kind: AgentSettingKind::Mode,
            current: modes.current_mode_id.clone(),
            choices: modes
                .available_modes
                .iter()
                .map(|m| AgentChoice {
                    value: m.id.clone(),
                    name: if m.name.is_empty() {
                        m.id.clone()
                    } else {
                        m.name.clone()
                    },
                    description: None,
                })
                .collect(),
        }],
        _ => Vec::new(),
    }
}

/// The agent's commands as `/` entries (one Foreman cannot read is left out).
pub(crate) fn commands_of(commands: &[Value]) -> Vec<SlashEntry> {
    commands
        .iter()
        .filter_map(|c| serde_json::from_value::<AvailableCommand>(c.clone()).ok())
        .filter(|c| !c.name.is_empty() && !c.name.contains(char::is_whitespace))
        .map(|c| SlashEntry {
            name: c.name.trim_start_matches('/').to_owned(),
            kind: SlashKind::Agent,
            description: c.description,
            argument_hint: c.input.and_then(|i| i.hint).filter(|h| !h.is_empty()),
            source: None,
        })
        .collect()
}

impl External {
    /// The settings as the agent last said, with a mode it took since.
    fn settings(&self) -> Vec<AgentSetting> {
        settings_of(&self.config_options, self.modes.as_ref())
    }

    /// The mode it is in now was set: its mode setting says so too.
    pub(crate) fn took_mode(&mut self, mode: &str) {
        if let Some(modes) = &mut self.modes {
            mode.clone_into(&mut modes.current_mode_id);
        }
        for option in &mut self.config_options {
            if option.get("category").and_then(Value::as_str) == Some("mode")
                && let Some(current) = option.get_mut("currentValue")
            {
                *current = Value::String(mode.to_owned());
            }
        }
    }

    /// Whether the agent lists `/name` among its own commands.
    pub(crate) fn has_command(&self, name: &str) -> bool {
        self.commands.iter().any(|c| c.name == name)
    }
}

impl Engine {
    /// Tells the front end what the agent offers now (nothing for Foreman's own agent).
    pub(crate) fn emit_agent_settings(&mut self) {
        let SessionAgent::External(external) = &self.agent else {
            return;
        };
        let (settings, commands) = (external.settings(), external.commands.clone());
        self.events
            .emit_session(EventMsg::AgentSettings { settings, commands });
    }

    /// The agent listed its settings (`options`) or its commands anew.
    pub(crate) fn agent_offers(
        &mut self,
        options: Option<Vec<Value>>,
        commands: Option<Vec<Value>>,
    ) {
        let SessionAgent::External(external) = &mut self.agent else {
            return;
        };
        if let Some(options) = options {
            external.config_options = options;
        }
        if let Some(commands) = commands {
            external.commands = commands_of(&commands);
        }
        self.emit_agent_settings();
    }

    /// Chooses `value` for the agent's setting `id` (answers [`Op::SetAgentSetting`]).
    ///
    /// [`Op::SetAgentSetting`]: crate::protocol::Op::SetAgentSetting
    pub(crate) async fn set_agent_setting(&mut self, id: String, value: String) {
        let SessionAgent::External(external) = &mut self.agent else {
            self.events.emit_session(EventMsg::Error {
                message: "This session's agent is Foreman's own: it has no agent settings.".into(),
            });
            return;
        };
        let known = external
            .settings()
            .into_iter()
            .find(|s| s.id == id)
            .is_some_and(|s| s.choices.iter().any(|c| c.value == value));
        if !known {
            let agent = external.spec.name.clone();
            self.events.emit_session(EventMsg::Error {
                message: format!("{agent} offers no setting `{id}` with the value `{value}`."),
            });
            return;
        }
        external.chosen.retain(|(chosen, _)| *chosen != id);
        external.chosen.push((id.clone(), value.clone()));
        if let Err(message) = self.apply_agent_setting(&id, &value).await {
            self.events.emit_session(EventMsg::Error { message });
        }
        self.emit_agent_settings();
    }

    /// Sends the choice to the running agent and keeps what it answers.
    pub(crate) async fn apply_agent_setting(
        &mut self,
        id: &str,
        value: &str,
    ) -> Result<(), String> {
        let SessionAgent::External(external) = &mut self.agent else {
            return Ok(());
        };
        let agent = external.spec.name.clone();
        let (Some(live), Some(session)) = (&external.live, external.acp_session.clone()) else {
            // Not running: chosen when it starts.
            return Ok(());
        };
        let by_mode = external.config_options.is_empty() && id == MODES_ID;
        let answer = match by_mode {
            true => live.connection.request(
                "session/set_mode",
                json!({"sessionId": session, "modeId": value}),
            ),
            false => live.connection.request(
                "session/set_config_option",
                json!({"sessionId": session, "configId": id, "value": value}),
            ),
        };
        let answered = match tokio::time::timeout(SET_TIMEOUT, answer).await {
            Ok(Ok(Ok(answered))) => answered,
            Ok(Ok(Err(error))) => return Err(format!("{agent} did not take it: {error}")),
            Ok(Err(_)) => return Err(format!("{agent} ended before it answered.")),
            Err(_) => {
                return Err(format!(
                    "{agent} did not answer within {} s; its setting may not have changed.",
                    SET_TIMEOUT.as_secs()
                ));
            }
        };
        let SessionAgent::External(external) = &mut self.agent else {
            return Ok(());
        };
        match answered.get("configOptions").and_then(Value::as_array) {
            Some(options) => external.config_options.clone_from(options),
            None if by_mode => external.took_mode(value),
            None => {
                for option in &mut external.config_options {
                    if option
                        .get("id")
                        .or_else(|| option.get("configId"))
                        .and_then(Value::as_str)
                        == Some(id)
                        && let Some(current) = option.get_mut("currentValue")
                    {
                        *current = Value::String(value.to_owned());
                    }
                }
            }
        }
        Ok(())
    }

    /// Chooses again, on a freshly started agent, what the person chose before.
    pub(crate) async fn choose_again(&mut self) {
        let chosen = match &self.agent {
            SessionAgent::External(external) => external.chosen.clone(),
            SessionAgent::Foreman => return,
        };
        for (id, value) in chosen {
            if let Err(message) = self.apply_agent_setting(&id, &value).await {
                tracing::warn!(%message, id, "a setting chosen before was not taken again");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acp::wire::SessionMode;

    #[test]
    fn config_options_win_over_modes_and_modes_alone_make_one_setting() {
        let modes = SessionModes {
            current_mode_id: "default".into(),
            available_modes: vec![
                SessionMode {
                    id: "default".into(),
                    name: "Ask".into(),
                },
                SessionMode {
                    id: "plan".into(),
                    name: String::new(),
                },
            ],
        };
        let alone = settings_of(&[], Some(&modes));
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].kind, AgentSettingKind::Mode);
        assert_eq!(alone[0].current, "default");
        assert_eq!(alone[0].choices[1].name, "plan");
        let options = [json!({
            "id": "model", "name": "Model", "category": "model", "type": "select",
            "currentValue": "m1", "options": [{"value": "m1", "name": "Model 1"}]
        })];
        let read = settings_of(&options, Some(&modes));
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].kind, AgentSettingKind::Model);
        assert_eq!(read[0].choices[0].name, "Model 1");
    }

    #[test]
    fn commands_become_entries_of_the_agent_and_odd_ones_are_left_out() {
        let entries = commands_of(&[
            json!({"name": "review", "description": "Review the changes", "input": {"hint": "[pr]"}}),
            json!({"name": "two words", "description": "x"}),
            json!({"description": "no name"}),
        ]);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].kind, SlashKind::Agent);
        assert_eq!(entries[0].argument_hint.as_deref(), Some("[pr]"));
    }
}
