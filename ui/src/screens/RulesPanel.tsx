// The allow, ask and deny rules in Settings: the user's (every workspace), this workspace's and
// the shown session's, each with its action; add, edit and delete them, with the syntax and an
// example for each tool. A change reaches the running sessions at once.
import { useEffect, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { RuleAction } from "../protocol/RuleAction";
import type { RuleScope } from "../protocol/RuleScope";
import type { StoredRule } from "../protocol/StoredRule";

const SCOPES: { scope: RuleScope; label: string }[] = [
  { scope: "session", label: "This session" },
  { scope: "workspace", label: "This workspace" },
  { scope: "user", label: "Every workspace" },
];

const EXAMPLES: [string, string][] = [
  ["bash(cargo test *)", "commands: a plain command line, * matches within one command"],
  ["edit(src/**)", "edit, multi_edit and write: paths in the workspace, ** crosses folders"],
  ["read(**/*.env)", "read, ls, glob, grep: paths they look at; denied, commands in the sandbox cannot read them"],
  ["http_fetch(domain:docs.rs)", "fetches: a host and its subdomains"],
  ["mcp__github__create_issue", "an external tool by its name, any arguments"],
];

export function RulesPanel({ backend, workspace, sessionId }: { backend: Backend; workspace: string; sessionId: string | null }) {
  const [rules, setRules] = useState<StoredRule[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [action, setAction] = useState<RuleAction>("allow");
  const [scope, setScope] = useState<RuleScope>("workspace");
  const [pattern, setPattern] = useState("");
  const [editing, setEditing] = useState<StoredRule | null>(null);
  useEffect(() => {
    backend.rulesList(workspace, sessionId).then(setRules, (e: unknown) => setError(errorMessage(e)));
  }, [backend, workspace, sessionId]);
  const done = (list: StoredRule[]) => {
    setRules(list);
    setError(null);
    setPattern("");
    setEditing(null);
  };
  const save = async () => {
    try {
      // Editing is adding the new rule, then removing the old one: the old stays if the new is refused.
      const added = await backend.rulesAdd(workspace, sessionId, action, pattern, scope);
      done(editing ? await backend.rulesRemove(workspace, sessionId, editing.id) : added);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const remove = (rule: StoredRule) =>
    backend.rulesRemove(workspace, sessionId, rule.id).then(done, (e: unknown) => setError(errorMessage(e)));
  const edit = (rule: StoredRule) => {
    setEditing(rule);
    setAction(rule.action);
    setScope(rule.scope);
    setPattern(rule.pattern);
  };
  const scopes = SCOPES.filter((s) => s.scope !== "session" || sessionId);
  return (
    <section className="panel" data-testid="rules-panel">
      <h2>Rules</h2>
      <p className="muted small">
        A rule lets a matching tool use run without asking (allow), always asks (ask), or refuses it (deny). Deny always
        wins, then ask, then allow; without a rule the approval mode decides.
      </p>
      <p className="muted small" data-testid="deny-paths-note">
        A deny rule on a path (<code>read(…)</code>, <code>edit(…)</code>, <code>write(…)</code>) holds for commands too:
        in the sandbox the files it names are hidden from them (read) or read-only (edit, write). Only the sandbox makes
        this complete: outside it, a command that names such a file asks, and one that reaches it without naming it is
        not stopped.
      </p>
      {scopes.map(({ scope: s, label }) => {
        const here = rules.filter((r) => r.scope === s);
        return (
          <div key={s} className="rules-scope">
            <h3>{label}</h3>
            {here.length === 0 ? (
              <p className="muted small">No rules.</p>
            ) : (
              <ul className="rules-list">
                {here.map((rule) => (
                  <li key={rule.id} data-testid="rule-row">
                    <span className={`rule-action rule-${rule.action}`}>{rule.action}</span> <code>{rule.pattern}</code>
                    <button type="button" className="ghost" onClick={() => edit(rule)}>
                      Edit
                    </button>
                    <button type="button" className="ghost" aria-label={`Delete ${rule.pattern}`} onClick={() => void remove(rule)}>
                      Delete
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
      <div className="rules-add row">
        <select aria-label="What the rule does" value={action} onChange={(e) => setAction(e.target.value as RuleAction)}>
          <option value="allow">Allow</option>
          <option value="ask">Ask</option>
          <option value="deny">Deny</option>
        </select>
        <input
          aria-label="Rule"
          data-testid="rule-pattern"
          placeholder="bash(cargo test *)"
          value={pattern}
          onChange={(e) => setPattern(e.target.value)}
        />
        <select aria-label="Where it applies" value={scope} onChange={(e) => setScope(e.target.value as RuleScope)}>
          {scopes.map(({ scope: s, label }) => (
            <option key={s} value={s}>
              {label}
            </option>
          ))}
        </select>
        <button type="button" className="primary" data-testid="save-rule" disabled={!pattern.trim()} onClick={() => void save()}>
          {editing ? "Save rule" : "Add rule"}
        </button>
        {editing && (
          <button type="button" className="ghost" onClick={() => done(rules)}>
            Cancel
          </button>
        )}
      </div>
      {error && (
        <p className="error-text" role="alert" data-testid="rule-error">
          {error}
        </p>
      )}
      <details className="muted small">
        <summary>Syntax and examples</summary>
        <ul>
          {EXAMPLES.map(([example, what]) => (
            <li key={example}>
              <code>{example}</code>: {what}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
