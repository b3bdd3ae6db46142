//! Facts about a built-in tool call that the approval policy must honour whatever the approval
//! mode: writes into protected folders (`.git/`, `.foreman/`) always need the person's approval,
//! and requests to loopback/private addresses are flagged in the approval request.

use serde::Serialize;
use serde_json::Value;

use super::http_fetch::parse_fetch_url;
use super::private_target::is_private_target;
use crate::boundary::WorkspaceBoundary;

/// Tools that write the file named by their `path` parameter.
pub const WRITING_TOOLS: [&str; 3] = ["write", "edit", "multi_edit"];

/// Approval facts about one call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ApprovalFlags {
    /// The call must be approved by the person even in the most permissive mode.
    pub needs_approval_always: bool,
    /// The request goes to this machine or a private network.
    pub private_network_target: bool,
    /// Why, in one sentence for the approval card.
    pub reason: Option<String>,
}

/// Computes the approval flags of a call to the built-in tool `tool` with `params`.
pub async fn approval_flags(
    boundary: &WorkspaceBoundary,
    tool: &str,
    params: &Value,
) -> ApprovalFlags {
    if WRITING_TOOLS.contains(&tool) {
        let Some(path) = params.get("path").and_then(Value::as_str) else {
            return ApprovalFlags::default();
        };
        if let Ok(resolved) = boundary.resolve(path)
            && boundary.is_protected(&resolved)
        {
            return ApprovalFlags {
                needs_approval_always: true,
                private_network_target: false,
                reason: Some(format!(
                    "{} is inside a protected folder (.git/ or .foreman/); changes there always need approval.",
                    boundary.display_relative(&resolved)
                )),
            };
        }
        return ApprovalFlags::default();
    }
    if tool == "http_fetch"
        && let Some(raw) = params.get("url").and_then(Value::as_str)
        && let Ok(url) = parse_fetch_url(raw)
        && is_private_target(&url).await
    {
        return ApprovalFlags {
            needs_approval_always: false,
            private_network_target: true,
            reason: Some(format!(
                "{url} points at this machine or a private network."
            )),
        };
    }
    ApprovalFlags::default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[tokio::test]
    async fn protected_writes_always_need_approval() {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        for tool in WRITING_TOOLS {
            let flags = approval_flags(&b, tool, &json!({"path": ".git/hooks/pre-commit"})).await;
            assert!(flags.needs_approval_always, "{tool}");
            assert!(flags.reason.unwrap().contains(".git/hooks/pre-commit"));
            let flags = approval_flags(&b, tool, &json!({"path": "./.foreman/config.toml"})).await;
            assert!(flags.needs_approval_always, "{tool}");
            assert!(
                !approval_flags(&b, tool, &json!({"path": "src/.gitkeep"}))
                    .await
                    .needs_approval_always
            );
        }
        // Reading protected paths is fine.
        assert!(
            !approval_flags(&b, "read", &json!({"path": ".git/config"}))
                .await
                .needs_approval_always
        );
    }

    #[tokio::test]
    async fn private_fetch_targets_are_flagged() {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        let flags = approval_flags(
            &b,
            "http_fetch",
            &json!({"url": "http://127.0.0.1:3000/admin"}),
        )
        .await;
        assert!(flags.private_network_target);
        assert!(!flags.needs_approval_always);
        let flags = approval_flags(&b, "http_fetch", &json!({"url": "https://1.1.1.1/"})).await;
        assert_eq!(flags, ApprovalFlags::default());
    }
}
