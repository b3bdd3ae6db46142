// Settings › Hooks & skills, for the open workspace: the hooks in force (when each runs, for
// which tools, its command, the file it comes from, and whether it runs or waits for your
// consent), what could not be read in the hook, command and skill files, the commands and skills
// found, the consent for the workspace's hooks with what it means, and whether hooks run in the
// sandbox (an app setting, saved with the others).
import { useCallback, useEffect, useState } from "react";
import type { Backend } from "../../backend";
import type { AppSettings } from "../../protocol/AppSettings";
import { errorMessage } from "../../backend";
import type { HookConsent } from "../../protocol/HookConsent";
import type { HooksView } from "../../protocol/HooksView";
import { CommandText } from "../../components/CommandText";
import { hookFor } from "../../components/hookWords";
import type { SlashCatalog } from "../../protocol/SlashCatalog";

const CONSENT: Record<HookConsent, string> = {
  not_needed: "runs (your own settings)",
  given: "runs (you allowed it)",
  waiting: "off until you allow it",
};

interface Props {
  backend: Backend;
  workspace: string;
  draft: AppSettings;
  onDraft(next: AppSettings): void;
}

export function HooksSection({ backend, workspace, draft, onDraft }: Props) {
  const [hooks, setHooks] = useState<HooksView | null>(null);
  const [catalog, setCatalog] = useState<SlashCatalog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const read = useCallback(() => {
    setError(null);
    backend.hooksView(workspace).then(setHooks, (e: unknown) => setError(errorMessage(e)));
    backend.slashCatalog(workspace).then(setCatalog, (e: unknown) => setError(errorMessage(e)));
  }, [backend, workspace]);
  useEffect(read, [read]);
  const hash = hooks?.consent_hash ?? null;
  const allow = async () => {
    if (!hash) return;
    setBusy(true);
    try {
      await backend.consentHooks(workspace, hash);
      setHooks(await backend.hooksView(workspace));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const warnings = [...(hooks?.warnings ?? []), ...(catalog?.warnings ?? [])];
  const found = (catalog?.entries ?? []).filter((e) => e.kind !== "built_in");
  return (
    <section className="panel" data-testid="hooks-section">
      <h2>Hooks &amp; skills</h2>
      <p className="muted small">
        Hooks are commands that run when the agent is about to use a tool or has used one, when you send a message, or when
        it stops; they may block a call or add to what the model reads. Foreman reads them in Claude Code's format: yours
        from <code>~/.claude/settings.json</code> and Foreman's <code>hooks.json</code> beside its settings, the
        workspace's from <code>.claude/settings.json</code>, <code>.claude/settings.local.json</code> and the same files
        in <code>.foreman/</code>.
      </p>
      <p className="muted small" data-testid="hooks-consent-meaning">
        Your own hooks always run. The workspace's come with the repository, so they run only once you allow them: allowing
        them lets those exact commands run on your computer whenever their event comes, in every session of this workspace.
        If the set changes, it is off again until you allow the new one.{" "}
        {draft.hooks_outside_sandbox
          ? "Hooks run outside the sandbox, with your full rights, as you chose below."
          : "Hooks run in the sandbox, like the agent's commands (Settings › Sandbox says what those may write and reach), so allowing them does not give them more."}
      </p>
      <label className="field check" title="Hooks are confined as the agent's commands are, unless you turn this on">
        <input
          type="checkbox"
          data-testid="hooks-outside-sandbox"
          checked={draft.hooks_outside_sandbox}
          onChange={(e) => onDraft({ ...draft, hooks_outside_sandbox: e.target.checked })}
        />
        <span>Run hooks outside the sandbox, with your full rights (new sessions)</span>
      </label>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {warnings.length > 0 && (
        <ul className="rules-list" data-testid="hooks-warnings" aria-label="Files that could not be read">
          {warnings.map((w) => (
            <li key={w} className="warn-text small">
              {w}
            </li>
          ))}
        </ul>
      )}
      <h3>Hooks</h3>
      {!hooks && !error && <p className="muted small">Reading the hook settings…</p>}
      {hooks && hooks.hooks.length === 0 && (
        <p className="muted small" data-testid="no-hooks">
          No hooks for this workspace.
        </p>
      )}
      {hooks && hooks.hooks.length > 0 && (
        <table className="hooks-table" data-testid="hooks-list">
          <thead>
            <tr>
              <th>When</th>
              <th>For</th>
              <th>Command</th>
              <th>From</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {hooks.hooks.map((h, i) => (
              <tr key={i} data-testid="hook-row" data-consent={h.consent}>
                <td>{h.event}</td>
                <td>{hookFor(h.event, h.matcher)}</td>
                <td>
                  <CommandText command={h.command} />
                </td>
                <td className="hooks-source">
                  <code>{h.source}</code>
                </td>
                <td className={h.consent === "waiting" ? "hooks-state warn-text" : "hooks-state"}>{CONSENT[h.consent]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hash && (
        <div className="row">
          <button className="primary" data-testid="settings-allow-hooks" disabled={busy} onClick={() => void allow()}>
            Allow these hooks
          </button>
        </div>
      )}
      <h3>Commands and skills</h3>
      <p className="muted small">
        Run one by typing <code>/</code> and its name at the start of a message. Skills are also offered to the agent by
        name and description; it reads the rest when a task needs it.
      </p>
      {!catalog && !error && <p className="muted small">Looking for commands and skills…</p>}
      {catalog && found.length === 0 && (
        <p className="muted small" data-testid="no-skills">
          None found in <code>.claude/commands/</code>, <code>.claude/skills/</code>, <code>.foreman/</code> or{" "}
          <code>.agents/skills/</code>, nor in your own folders.
        </p>
      )}
      {found.length > 0 && (
        <table className="hooks-table" data-testid="slash-list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Kind</th>
              <th>What it does</th>
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {found.map((e) => (
              <tr key={`${e.kind}:${e.name}`} data-testid="slash-row">
                <td className="hooks-name">
                  <code>/{e.name}</code>
                  {e.argument_hint && <span className="muted"> {e.argument_hint}</span>}
                </td>
                <td>{e.kind === "skill" ? "skill" : "command"}</td>
                <td>{e.description}</td>
                <td className="hooks-source">
                  <code>{e.source}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
