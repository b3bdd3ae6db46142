//! A scripted model server of `tests/agents` (`fake_anthropic.py` for Claude Code,
//! `fake_openai.py`'s Responses API for Codex), run for one test and stopped when dropped.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

pub const AGENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/agents");

pub struct ScriptedModel {
    child: std::process::Child,
    pub port: u16,
    log: PathBuf,
}

impl Drop for ScriptedModel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ScriptedModel {
    /// `server` (a file of `tests/agents`) answering with `turns`, in `dir`.
    pub fn start(dir: &Path, server: &str, turns: Value) -> Self {
        let script = dir.join("turns.json");
        std::fs::write(&script, turns.to_string()).unwrap();
        let (port_file, log) = (dir.join("port"), dir.join("requests.jsonl"));
        let mut child = std::process::Command::new("python3")
            .arg(format!("{AGENTS}/{server}"))
            .arg("--script")
            .arg(&script)
            .arg("--port-file")
            .arg(&port_file)
            .arg("--log")
            .arg(&log)
            .spawn()
            .unwrap();
        for _ in 0..200 {
            if let Ok(port) = std::fs::read_to_string(&port_file) {
                return Self {
                    child,
                    port: port.trim().parse().unwrap(),
                    log,
                };
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("the scripted model server {server} did not start");
    }

    /// The agent's main requests (the ones that carry its tools), as the server logged them.
    pub fn main_requests(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|r| r["kind"] == "main")
            .collect()
    }
}
