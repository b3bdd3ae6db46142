//! `foreman-cli rules`: rules of a workspace and of the user, listed with their scope, checked
//! before they are stored, removed by id.

use tokio::process::Command;

use super::common::{BIN, isolated_env};

async fn rules(
    dir: &std::path::Path,
    ws: &std::path::Path,
    args: &[&str],
) -> (bool, String, String) {
    let out = Command::new(BIN)
        .arg("rules")
        .arg(args[0])
        .arg("--workspace")
        .arg(ws)
        .args(&args[1..])
        .envs(isolated_env(dir))
        .output()
        .await
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn rules_are_added_with_their_scope_checked_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    let (ok, _, err) = rules(dir.path(), &ws, &["add", "--action", "deny", "bash(rm *)"]).await;
    assert!(ok, "{err}");
    let (ok, out, err) = rules(
        dir.path(),
        &ws,
        &["add", "--scope", "user", "bash(cargo test *)"],
    )
    .await;
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].ends_with("\tuser\tallow\tbash(cargo test *)"),
        "{out}"
    );
    assert!(lines[1].ends_with("\tworkspace\tdeny\tbash(rm *)"), "{out}");
    let (ok, _, err) = rules(dir.path(), &ws, &["add", "bash(cargo test"]).await;
    assert!(!ok);
    assert!(err.contains("bash(cargo test"), "{err}");
    let id = lines[1].split('\t').next().unwrap();
    let (ok, out, err) = rules(dir.path(), &ws, &["remove", id]).await;
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let (ok, _, err) = rules(dir.path(), &ws, &["remove", "9999"]).await;
    assert!(!ok && err.contains("there is no rule 9999"), "{err}");
}
