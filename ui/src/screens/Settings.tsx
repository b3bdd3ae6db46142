// Settings: provider, model, base URL, API key (kept in the system keychain, never shown; not
// needed by a local server), answer limit, Test connection, default approval mode, limits.
import { useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { AppSettings } from "../protocol/AppSettings";
import type { ConnectionTest } from "../protocol/ConnectionTest";
import type { SandboxLevel } from "../protocol/SandboxLevel";
import type { ApprovalMode } from "../protocol/ApprovalMode";
import type { ProviderPreset } from "../protocol/ProviderPreset";
import type { SettingsView } from "../protocol/SettingsView";
import { McpPanel } from "./McpPanel";
import { CheckpointsPanel } from "./CheckpointsPanel";
import { RulesPanel } from "./RulesPanel";
import { ModelPicker } from "./ModelPicker";
import { ThinkingFields, MIN_THINKING_BUDGET } from "./ThinkingFields";
import { InstructionsPanel } from "./InstructionsPanel";
import { ConnectionResult } from "./ConnectionResult";
import { defaultMaxTokens, keyRequired, maxTokensProblem, MAX_MAX_TOKENS } from "./localServer";

interface Props {
  backend: Backend;
  view: SettingsView;
  /** The open workspace, whose MCP servers, rules and checkpoints are shown. */
  workspace?: string | null;
  /** The session the workspace shows, whose own rules are shown too. */
  sessionId?: string | null;
  onChange(view: SettingsView): void;
  onClose(): void;
}

export function Settings({ backend, view, workspace, sessionId = null, onChange, onClose }: Props) {
  const [draft, setDraft] = useState<AppSettings>(view.settings);
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [connection, setConnection] = useState<ConnectionTest | null>(null);
  const preset = view.presets.find((p) => p.preset === draft.provider.preset);
  const needsKey = keyRequired(draft.provider, preset?.requires_key ?? false, preset?.base_url ?? "");
  const tokensProblem = maxTokensProblem(draft.provider.max_tokens);
  const dirty = JSON.stringify(draft) !== JSON.stringify(view.settings);
  const budget = draft.provider.preset === "anthropic" ? draft.provider.thinking_budget ?? null : null;
  const invalid = (budget !== null && budget < MIN_THINKING_BUDGET) || tokensProblem !== null;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setMessage(null);
    try {
      await work();
    } catch (e) {
      setMessage({ tone: "error", text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  const choosePreset = (value: ProviderPreset) => {
    const p = view.presets.find((x) => x.preset === value);
    if (!p) return;
    setConnection(null);
    setDraft({ ...draft, provider: { ...draft.provider, preset: value, base_url: p.base_url, model: p.model } });
  };
  const setProvider = (change: Partial<AppSettings["provider"]>) =>
    setDraft({ ...draft, provider: { ...draft.provider, ...change } });

  const save = () =>
    run(async () => {
      const saved = await backend.saveSettings(draft);
      onChange(saved);
      setDraft(saved.settings);
      setMessage({ tone: "ok", text: "Settings saved. Open sessions of this provider use the model from their next request." });
    });

  const storeKey = () =>
    run(async () => {
      if (dirty) onChange(await backend.saveSettings(draft));
      const next = await backend.setApiKey(draft.provider.preset, key);
      setKey("");
      onChange(next);
      setMessage({ tone: "ok", text: "The key is stored in the system keychain." });
    });

  return (
    <div className="settings-screen" data-testid="settings">
      <header className="settings-header">
        <h1>Settings</h1>
        <button className="ghost" data-testid="close-settings" onClick={onClose}>
          Done
        </button>
      </header>
      <div className="settings-body">
        <section className="panel">
          <h2>Model provider</h2>
          <label className="field">
            <span>Provider</span>
            <select
              data-testid="preset"
              value={draft.provider.preset}
              onChange={(e) => choosePreset(e.target.value as ProviderPreset)}
            >
              {view.presets.map((p) => (
                <option key={p.preset} value={p.preset}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Base URL</span>
            <input
              data-testid="base-url"
              value={draft.provider.base_url}
              placeholder={preset?.base_url || "http://localhost:8000/v1"}
              onChange={(e) => setProvider({ base_url: e.target.value })}
            />
          </label>
          <ModelPicker
            backend={backend}
            provider={draft.provider}
            keyStored={view.key_stored}
            onChange={(model, contextWindow) =>
              setProvider(contextWindow === undefined ? { model } : { model, context_window: contextWindow })
            }
          />
          <ThinkingFields provider={draft.provider} onChange={setProvider} />
          <label className="field">
            <span>Context window (tokens)</span>
            <input
              type="number"
              data-testid="context-window"
              min={2048}
              value={draft.provider.context_window ?? ""}
              placeholder="the model's known window, else 200000"
              onChange={(e) => {
                const tokens = Number(e.target.value);
                setProvider({ context_window: e.target.value.trim() && tokens > 0 ? Math.floor(tokens) : null });
              }}
            />
          </label>
          <label
            className="field"
            title="The most tokens one answer of the model may have, thinking not counted. An answer that reaches it is cut off, and you are told. Small local models that ramble stop sooner with a smaller limit."
          >
            <span>Max answer tokens</span>
            <input
              type="number"
              data-testid="max-tokens"
              min={1}
              max={MAX_MAX_TOKENS}
              value={draft.provider.max_tokens ?? ""}
              placeholder={`${defaultMaxTokens(draft.provider, preset?.base_url ?? "")} (the default for this server)`}
              onChange={(e) => {
                const tokens = Number(e.target.value);
                setProvider({ max_tokens: e.target.value.trim() && Number.isFinite(tokens) ? Math.floor(tokens) : null });
              }}
            />
            {tokensProblem && (
              <span className="error-text" data-testid="max-tokens-error">
                {tokensProblem}
              </span>
            )}
          </label>
          <label className="field check">
            <input
              type="checkbox"
              checked={draft.provider.text_protocol}
              onChange={(e) => setProvider({ text_protocol: e.target.checked })}
            />
            <span>This model has no native tool calling (use the JSON text protocol)</span>
          </label>
          <label className="field check">
            <input
              type="checkbox"
              data-testid="record-streams"
              checked={draft.provider.record_streams}
              onChange={(e) => setProvider({ record_streams: e.target.checked })}
            />
            <span>
              Record the provider's raw responses, for a bug report (the key is left out). New sessions write one file per
              response to <code data-testid="recordings-path">{view.recordings_path}</code>
            </span>
          </label>
          <div className="field">
            <span>API key</span>
            <div className="key-row">
              {view.key_stored && draft.provider.preset === view.settings.provider.preset ? (
                <span className="key-stored" data-testid="key-stored">
                  •••••••• stored in the system keychain
                </span>
              ) : (
                <span className="muted" data-testid="key-hint">
                  {needsKey ? "No key stored yet." : "Optional for this server."}
                </span>
              )}
            </div>
            <div className="key-row">
              <input
                type="password"
                data-testid="api-key"
                autoComplete="off"
                aria-label="New API key"
                placeholder={view.key_stored ? "Replace the key" : "Paste the API key"}
                value={key}
                onChange={(e) => setKey(e.target.value)}
              />
              <button data-testid="save-key" disabled={busy || !key.trim()} onClick={storeKey}>
                Store key
              </button>
              {view.key_stored && (
                <button
                  className="ghost"
                  disabled={busy}
                  onClick={() => run(async () => onChange(await backend.deleteApiKey(draft.provider.preset)))}
                >
                  Remove
                </button>
              )}
            </div>
            {view.keychain_error && <p className="error-text">{view.keychain_error}</p>}
          </div>
          <div className="row">
            <button
              data-testid="test-connection"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  setConnection(null);
                  setConnection(await backend.testConnection(draft));
                })
              }
            >
              Test connection
            </button>
          </div>
          {connection && (
            <ConnectionResult
              result={connection}
              textProtocol={draft.provider.text_protocol}
              onUseTextProtocol={() => setProvider({ text_protocol: true })}
              onChooseModel={(model) => setProvider({ model })}
            />
          )}
        </section>
        <section className="panel">
          <h2>Agent</h2>
          <label className="field">
            <span>Approval mode for new sessions</span>
            <select
              value={draft.approval_mode}
              onChange={(e) => setDraft({ ...draft, approval_mode: e.target.value as ApprovalMode })}
            >
              <option value="read-only">Read only: nothing that changes anything</option>
              <option value="ask">Ask before edits, commands and fetches</option>
              <option value="auto-edit">Edit files freely, ask before commands</option>
              <option value="auto">Edit files and run commands in the sandbox without asking</option>
              <option value="yolo">Run everything without asking: commands run with your full rights</option>
            </select>
          </label>
          <label className="field">
            <span>Most model requests per message</span>
            <input
              type="number"
              min={1}
              max={500}
              value={draft.max_iterations}
              onChange={(e) => setDraft({ ...draft, max_iterations: Math.max(1, Number(e.target.value) || 1) })}
            />
          </label>
          <label className="field">
            <span>Connect timeout (seconds)</span>
            <input
              type="number"
              min={1}
              value={draft.provider.connect_timeout_secs}
              onChange={(e) => setProvider({ connect_timeout_secs: Math.max(1, Number(e.target.value) || 1) })}
            />
          </label>
          <label className="field">
            <span>Give up when the model is silent for (seconds)</span>
            <input
              type="number"
              min={1}
              value={draft.provider.idle_timeout_secs}
              onChange={(e) => setProvider({ idle_timeout_secs: Math.max(1, Number(e.target.value) || 1) })}
            />
          </label>
          <label className="field check">
            <input
              type="checkbox"
              checked={draft.notify_approvals}
              onChange={(e) => setDraft({ ...draft, notify_approvals: e.target.checked })}
            />
            <span>Notify me when an approval waits and Foreman is in the background</span>
          </label>
        </section>
        <section className="panel" data-testid="sandbox-settings">
          <h2>Sandbox and checkpoints</h2>
          <label className="field">
            <span>Commands the agent runs</span>
            <select
              data-testid="sandbox-level"
              value={draft.sandbox}
              onChange={(e) => setDraft({ ...draft, sandbox: e.target.value as SandboxLevel })}
            >
              <option value="workspace-write">Write the workspace only (.git stays read-only)</option>
              <option value="read-only">Write nothing but a temporary folder</option>
              <option value="off">Off: commands run with your full rights</option>
            </select>
          </label>
          <label className="field check">
            <input
              type="checkbox"
              checked={draft.sandbox_network}
              disabled={draft.sandbox === "off"}
              onChange={(e) => setDraft({ ...draft, sandbox_network: e.target.checked })}
            />
            <span>Let sandboxed commands reach the network</span>
          </label>
          <label className="field">
            <span>Leave files larger than this out of checkpoints (MiB)</span>
            <input
              type="number"
              min={1}
              value={draft.checkpoint_max_file_mib}
              onChange={(e) => setDraft({ ...draft, checkpoint_max_file_mib: Math.max(1, Number(e.target.value) || 1) })}
            />
          </label>
          <p className={view.sandbox_available || view.settings.sandbox === "off" ? "muted small" : "warn-text small"} data-testid="sandbox-status">
            {view.sandbox_status}
          </p>
          <p className="muted small">
            In every mode but “Run everything”, commands run in the sandbox; when it refuses something a
            command needs, you are asked whether to run it outside. “Auto” runs sandboxed commands without
            asking.
          </p>
        </section>
        {workspace && <RulesPanel backend={backend} workspace={workspace} sessionId={sessionId} />}
        {workspace && <InstructionsPanel backend={backend} workspace={workspace} />}
        {workspace && <CheckpointsPanel backend={backend} workspace={workspace} />}
        {workspace && <McpPanel backend={backend} workspace={workspace} />}
        {message && (
          <div className={message.tone === "ok" ? "banner banner-ok" : "banner banner-error"} role="status" data-testid="settings-message">
            {message.text}
          </div>
        )}
        <div className="row end">
          <span className="muted small">Saved in {view.path}</span>
          <button className="primary" data-testid="save-settings" disabled={busy || !dirty || invalid} onClick={save}>
            Save
          </button>
        </div>
      </div>
    </div>
  );
}
