//! Issue 51: what an external agent offers beside the composer — its settings (ACP config
//! options: a model, its own mode) and its own `/` commands — arrive as `agent_settings`
//! before its first turn, and the person's choice reaches the agent. The scripted agent
//! (`tests/acp/scripted_agent.py`) reports what it has as `RESULT key value` lines.

use std::sync::atomic::{AtomicBool, Ordering};

use super::acp_agents::reported;
use super::common::{Run, exec_in, run_answering};
use serde_json::{Value, json};

const AGENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/acp/scripted_agent.py"
);

async fn agent(prompt: &str, answer: impl Fn(&Value) -> Option<Value>) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.arg("--json")
        .arg("--agent-command")
        .arg(format!("python3 {AGENT}"))
        .arg(prompt);
    run_answering(cmd, answer).await
}

fn setting<'a>(event: &'a Value, id: &str) -> Option<&'a Value> {
    event["settings"].as_array()?.iter().find(|s| s["id"] == id)
}

#[tokio::test]
async fn the_agent_s_settings_come_before_its_first_turn_and_a_choice_reaches_it() {
    let sent = AtomicBool::new(false);
    let out = agent("wait-model large", |event| {
        (event["type"] == "agent_settings"
            && setting(event, "model").is_some_and(|m| m["current"] == "small")
            && !sent.swap(true, Ordering::SeqCst))
        .then(|| json!({"op": "set_agent_setting", "id": "model", "value": "large"}))
    })
    .await;
    let index = |kind: &str| out.events.iter().position(|e| e["type"] == kind);
    let first = index("agent_settings").unwrap_or_else(|| panic!("no settings: {}", out.stderr));
    assert!(
        first < index("task_started").unwrap(),
        "the settings came after the turn began"
    );
    let shown = &out.events[first];
    let model = setting(shown, "model").unwrap();
    assert_eq!(model["kind"], "model");
    // Its two groups, flattened, with their words.
    let values: Vec<&Value> = model["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["value"])
        .collect();
    assert_eq!(values, [&json!("small"), &json!("large")]);
    assert_eq!(model["choices"][1]["description"], "Slow and thorough");
    // Foreman put the agent in its asking mode; an option it cannot show is left out.
    assert_eq!(setting(shown, "mode").unwrap()["current"], "default");
    assert!(setting(shown, "fast").is_none());
    assert_eq!(
        reported(&out, "model"),
        Some(json!("large")),
        "{}",
        out.stderr
    );
    let last = out
        .events
        .iter()
        .rev()
        .find(|e| e["type"] == "agent_settings")
        .unwrap();
    assert_eq!(setting(last, "model").unwrap()["current"], "large");
}

#[tokio::test]
async fn the_agent_s_own_command_is_listed_and_goes_to_it_as_typed() {
    let out = agent("/greet Ada Lovelace", |_| None).await;
    let commands = out
        .events
        .iter()
        .filter(|e| e["type"] == "agent_settings")
        .find_map(|e| e["commands"].as_array().filter(|c| !c.is_empty()).cloned())
        .unwrap_or_default();
    assert_eq!(commands.len(), 1, "{:?}", out.events);
    assert_eq!(commands[0]["name"], "greet");
    assert_eq!(commands[0]["kind"], "agent");
    assert_eq!(commands[0]["argument_hint"], "name");
    assert_eq!(
        reported(&out, "command"),
        Some(json!("/greet Ada Lovelace")),
        "{}",
        out.stderr
    );
}

#[tokio::test]
async fn a_value_the_agent_does_not_offer_is_refused_and_nothing_changes() {
    let sent = AtomicBool::new(false);
    let out = agent("settings", |event| {
        (event["type"] == "agent_settings" && !sent.swap(true, Ordering::SeqCst))
            .then(|| json!({"op": "set_agent_setting", "id": "model", "value": "huge"}))
    })
    .await;
    let error = out
        .events
        .iter()
        .find(|e| e["type"] == "error")
        .unwrap_or_else(|| panic!("no error: {:?}", out.events));
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("no setting `model` with the value `huge`"),
        "{error}"
    );
    assert_eq!(reported(&out, "model"), Some(json!("small")));
}
