//! What a killed write leaves (issue 49): the next `foreman-cli exec` in the workspace removes
//! the `.foreman-tmp-<pid>-<n>` files of processes that have ended, and only those.

use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::json;

use super::common::{body, exec_in, run};

/// The id of a process that has ended.
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[cfg(unix)]
#[tokio::test]
async fn the_next_exec_removes_what_writes_of_ended_processes_left() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join("src/deep")).unwrap();
    let dead = dead_pid();
    let alive = std::process::id();
    let half_written = vec![b'x'; 256 * 1024];
    let stale = [
        format!(".foreman-tmp-{dead}-0"),
        format!("src/deep/.foreman-tmp-{dead}-17"),
    ];
    // A running writer's file, names that are not a write's, and a link named like one (whose
    // target is not the workspace's to remove).
    let kept = [
        format!("src/.foreman-tmp-{alive}-3"),
        format!("src/.foreman-tmp-{dead}-x"),
        format!("src/.foreman-tmp-{dead}"),
        "src/foreman-tmp-1-1".to_owned(),
        "src/main.rs".to_owned(),
    ];
    for path in stale.iter().chain(&kept) {
        std::fs::write(ws.join(path), &half_written).unwrap();
    }
    let target = dir.path().join("outside.txt");
    std::fs::write(&target, "keep me").unwrap();
    let link = format!("src/.foreman-tmp-{dead}-9");
    std::os::unix::fs::symlink(&target, ws.join(&link)).unwrap();

    let server = ScriptedServer::start(vec![body("anthropic", &[text("Nothing to do.")])])
        .await
        .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args([
        "--base-url",
        &server.url(),
        "--model",
        "m",
        "--json",
        "look",
    ])
    .env("ANTHROPIC_API_KEY", "test-key");
    let out = run(cmd, |_| json!({})).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    for path in &stale {
        assert!(!ws.join(path).exists(), "{path} is still there");
    }
    for path in &kept {
        assert_eq!(
            std::fs::read(ws.join(path)).unwrap().len(),
            half_written.len(),
            "{path}"
        );
    }
    assert!(ws.join(&link).symlink_metadata().is_ok(), "the link stays");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
}
