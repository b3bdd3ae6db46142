//! The first start of a data folder, raced (issue 49): several `foreman-cli exec` started at
//! once where there is no database yet all create, migrate and use the same one.

use std::time::Duration;

use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::Value;

use super::common::{BIN, body, exec_in, isolated_env};

const AT_ONCE: usize = 8;

#[tokio::test]
async fn eight_execs_at_once_on_an_empty_data_folder_all_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let server = ScriptedServer::start(
        (0..AT_ONCE)
            .map(|_| body("anthropic", &[text("Done.")]))
            .collect(),
    )
    .await
    .unwrap();
    let workspaces: Vec<_> = (0..AT_ONCE)
        .map(|i| {
            let ws = dir.path().join(format!("ws{i}"));
            std::fs::create_dir_all(&ws).unwrap();
            ws
        })
        .collect();
    // Every process of the same user, one data folder (`$XDG_DATA_HOME`), no database in it.
    let children: Vec<_> = workspaces
        .iter()
        .map(|ws| {
            let mut cmd = exec_in(dir.path(), ws);
            cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
                .args(["--max-tasks", "8", "say done"])
                .env("ANTHROPIC_API_KEY", "test-key");
            cmd.spawn().unwrap()
        })
        .collect();
    for (i, child) in children.into_iter().enumerate() {
        let out = tokio::time::timeout(Duration::from_secs(120), child.wait_with_output())
            .await
            .expect("an exec hung")
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "exec {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(server.requests().len(), AT_ONCE);
    // One database holds each workspace's session.
    for ws in &workspaces {
        let listed = tokio::process::Command::new(BIN)
            .args(["sessions", "--workspace"])
            .arg(ws)
            .envs(isolated_env(dir.path()))
            .output()
            .await
            .unwrap();
        let text = String::from_utf8_lossy(&listed.stdout);
        let sessions: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(sessions.len(), 1, "{}: {text}", ws.display());
        assert_eq!(sessions[0]["title"], "say done");
    }
}
