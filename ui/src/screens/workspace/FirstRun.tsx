// The empty conversation: "Ready when you are", or, while setup is missing, what is missing with
// the fix at hand: the API key field itself when the key is what is missing, else a way to
// Settings. It takes the place of the empty state instead of sitting on top of it.
import { useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { ApprovalMode } from "../../protocol/ApprovalMode";
import type { SettingsView } from "../../protocol/SettingsView";
import { modeDetail, modeName } from "../../components/approvalModes";

interface Props {
  backend: Backend;
  /** Where the agent works: the folder, or a task's worktree. */
  workspacePath: string;
  /** A task's branch, when it works in a worktree of its own. */
  branch?: string;
  /** The approval mode the conversation starts in. */
  mode?: ApprovalMode;
  settings: SettingsView | null;
  onSettings(view: SettingsView): void;
  onOpenSettings(): void;
}

export function FirstRun({ backend, workspacePath, branch, mode = "ask", settings, onSettings, onOpenSettings }: Props) {
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const missing = settings?.missing ?? null;
  const preset = settings?.presets.find((p) => p.preset === settings.settings.provider.preset);
  const needsKey = Boolean(settings && preset?.requires_key && !settings.key_stored);

  const store = async () => {
    if (!settings) return;
    setBusy(true);
    setError(null);
    try {
      onSettings(await backend.setApiKey(settings.settings.provider.preset, key.trim()));
      setKey("");
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (!missing) {
    return (
      <div className="conversation-empty">
        <div className="panel subtle">
          <h2>Ready when you are</h2>
          <p className="muted">
            The agent will work inside <code>{workspacePath}</code>
            {branch ? (
              <>
                , a worktree of its own on <code>{branch}</code>, and nowhere else: your checkout stays as it is until you merge.
              </>
            ) : (
              " and nowhere else."
            )}
          </p>
          <p className="muted" data-testid="first-run-mode">
            {mode === "ask" ? "Every edit and command it proposes waits for your approval." : `${modeName(mode)}: ${modeDetail(mode)}`}
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className="conversation-empty">
      <div className="panel subtle first-run" data-testid="setup-banner" role="status">
        <h2>One step before you start</h2>
        <p>{missing}</p>
        {needsKey && (
          <form
            className="key-row"
            onSubmit={(e) => {
              e.preventDefault();
              if (key.trim()) void store();
            }}
          >
            <input
              type="password"
              data-testid="first-run-key"
              autoComplete="off"
              aria-label={`${preset?.label ?? "API"} key`}
              placeholder={`Paste your ${preset?.label ?? ""} API key`}
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
            <button type="submit" className="primary" data-testid="first-run-save-key" disabled={busy || !key.trim()}>
              Store key
            </button>
          </form>
        )}
        {error && <p className="error-text" role="alert">{error}</p>}
        <p className="muted small">
          {needsKey ? "The key goes to the system keychain. " : ""}
          <button type="button" className="link-button" data-testid="first-run-settings" onClick={onOpenSettings}>
            {needsKey ? "Another provider or model…" : "Open settings"}
          </button>
        </p>
      </div>
    </div>
  );
}
