// Settings: a section list on the left and one section at a time. Provider: model, base URL, API
// key (kept in the system keychain, never shown), Test connection. Agent: limits and timeouts.
// Approvals & rules, the sandbox for commands, MCP servers, hooks and skills, project
// instructions, checkpoints, and where files are kept.
// The app's settings are one draft saved by one Save; the workspace's panels save themselves.
import { useEffect, useRef, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { AppSettings } from "../protocol/AppSettings";
import type { ConnectionTest } from "../protocol/ConnectionTest";
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
import { PathText } from "../components/PathText";
import { SECTIONS, SettingsNav } from "./settings/SettingsNav";
import type { SectionId } from "./settings/SettingsNav";
import { AgentSection } from "./settings/AgentSection";
import { ApprovalsSection } from "./settings/ApprovalsSection";
import { SandboxSection } from "./settings/SandboxSection";
import { TasksSection } from "./settings/TasksSection";
import { ExternalAgentsSection } from "./settings/ExternalAgentsSection";
import { CheckpointSection } from "./settings/CheckpointSection";
import { DiagnosticsPanel } from "./settings/DiagnosticsPanel";
import { HooksSection } from "./settings/HooksSection";

interface Props {
  backend: Backend;
  view: SettingsView;
  /** The open workspace, whose MCP servers, rules and checkpoints are shown. */
  workspace?: string | null;
  /** The session the workspace shows, whose own rules are shown too. */
  sessionId?: string | null;
  onChange(view: SettingsView): void;
  onClose(): void;
  /** The section open first. */
  initialSection?: SectionId;
}

export function Settings({ backend, view, workspace, sessionId = null, onChange, onClose, initialSection = "provider" }: Props) {
  const [section, setSection] = useState<SectionId>(initialSection);
  // A section opens at its top, not where the last one was scrolled to.
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    body.current?.scrollTo?.({ top: 0 });
  }, [section]);
  const sections = SECTIONS.filter((s) => workspace || !s.workspaceOnly);
  // Save is offered only where there is something of the draft to save.
  const saves = SECTIONS.find((s) => s.id === section)?.saved ?? false;
  const [draft, setDraft] = useState<AppSettings>(view.settings);
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  // What one section's action said does not follow the person to another section.
  useEffect(() => setMessage(null), [section]);
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
      <div className="settings-layout">
      <SettingsNav sections={sections} current={section} onPick={setSection} />
      <div className="settings-main">
      <div className="settings-body" ref={body}>
        <section className="panel" hidden={section !== "provider"} data-testid="settings-provider">
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
          <label className="field check" title="For a model without native tool calling: tools are described and called in a JSON text protocol">
            <input
              type="checkbox"
              checked={draft.provider.text_protocol}
              onChange={(e) => setProvider({ text_protocol: e.target.checked })}
            />
            <span>Use the text protocol</span>
          </label>
          <label className="field check" title="For a bug report: new sessions write each raw provider response (without the key) to a file">
            <input
              type="checkbox"
              data-testid="record-streams"
              checked={draft.provider.record_streams}
              onChange={(e) => setProvider({ record_streams: e.target.checked })}
            />
            <span>Record raw responses</span>
          </label>
          {draft.provider.record_streams && (
            <p className="muted small settings-note" data-testid="recordings-path">
              New sessions write them to <PathText path={view.recordings_path} />
            </p>
          )}
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
        <AgentSection draft={draft} hidden={section !== "agent"} onDraft={setDraft} onProvider={setProvider} />
        <ApprovalsSection
          draft={draft}
          hidden={section !== "approvals"}
          onDraft={setDraft}
          onSandbox={() => setSection("sandbox")}
          rules={workspace && section === "approvals" && <RulesPanel backend={backend} workspace={workspace} sessionId={sessionId} />}
        />
        <SandboxSection draft={draft} view={view} hidden={section !== "sandbox"} onDraft={setDraft} />
        <TasksSection draft={draft} hidden={section !== "tasks"} onDraft={setDraft} />
        {section === "agents" && <ExternalAgentsSection backend={backend} />}
        {workspace && section === "hooks" && <HooksSection backend={backend} workspace={workspace} draft={draft} onDraft={setDraft} />}
        {workspace && section === "instructions" && <InstructionsPanel backend={backend} workspace={workspace} />}
        {section === "checkpoints" && (
          <div className="settings-stack">
            <CheckpointSection draft={draft} onDraft={setDraft} />
            {workspace && <CheckpointsPanel backend={backend} workspace={workspace} />}
          </div>
        )}
        {workspace && section === "mcp" && <McpPanel backend={backend} workspace={workspace} />}
        {section === "about" && (
          <section className="panel" data-testid="settings-about">
            <h2>About</h2>
            <div className="field">
              <span>Settings file</span>
              <PathText path={view.path} />
            </div>
            <div className="field">
              <span>Recordings</span>
              <PathText path={view.recordings_path} />
            </div>
            <DiagnosticsPanel backend={backend} />
          </section>
        )}
      </div>
      {/* Below the scrolling sections, not over them: the bar never covers a field. */}
      {saves && (
        <footer className="settings-save" data-testid="settings-save">
          <div className="row">
            {message && (
              <div className={message.tone === "ok" ? "banner banner-ok" : "banner banner-error"} role="status" data-testid="settings-message">
                {message.text}
              </div>
            )}
            <span className="spacer" />
            {dirty && <span className="muted small">Unsaved changes</span>}
            <button className="primary" data-testid="save-settings" disabled={busy || !dirty || invalid} onClick={save}>
              Save
            </button>
          </div>
        </footer>
      )}
      </div>
      </div>
    </div>
  );
}
