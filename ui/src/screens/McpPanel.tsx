// MCP servers of the open workspace: state, call timeout, sandbox, tools, approval of workspace
// servers, restart, on/off per server and per tool; the user's own servers added, edited and
// removed with a form (`mcp/`), or their mcp.json edited whole in the "Advanced (JSON)" view.
import { useEffect, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { McpView } from "../protocol/McpView";
import type { ServerState } from "../protocol/ServerState";
import { PathText } from "../components/PathText";
import { McpServerForm } from "./mcp/McpServerForm";
import type { McpServerEntry } from "./mcp/mcpConfig";
import { emptyServer, parseServers, writeServers } from "./mcp/mcpConfig";
import { sandboxText } from "./mcp/sandboxText";

type Editing = { kind: "add" } | { kind: "edit"; name: string } | null;

function stateText(state: ServerState): string {
  switch (state.kind) {
    case "starting":
      return "starting…";
    case "connected":
      return `connected · ${state.tools} tools`;
    case "failed":
      return "failed";
    case "disabled":
      return "off";
    case "awaiting_approval":
      return "waiting for your approval";
  }
}

const EXAMPLE = `{
  "mcpServers": {
    "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "timeout": 120 },
    "remote": { "url": "https://example.com/mcp", "headers": {} }
  }
}`;

export function McpPanel({ backend, workspace }: { backend: Backend; workspace: string }) {
  const [view, setView] = useState<McpView | null>(null);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [advanced, setAdvanced] = useState(false);

  const apply = (next: McpView) => {
    setView(next);
    setText(next.user_text);
    setError(null);
  };
  useEffect(() => {
    backend.mcpStatus(workspace).then(apply, (e: unknown) => setError(errorMessage(e)));
  }, [backend, workspace]);

  const run = async (work: () => Promise<McpView>): Promise<boolean> => {
    setBusy(true);
    try {
      apply(await work());
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const parsed = view ? parseServers(view.user_text) : null;
  const entries = parsed?.ok ? parsed.servers : [];
  const saveEntries = async (next: McpServerEntry[]) => {
    if (!view) return;
    const text = writeServers(view.user_text, next);
    if (await run(() => backend.mcpSaveUserConfig(workspace, text))) {
      setEditing(null);
      setRemoving(null);
    }
  };
  const saveEntry = (entry: McpServerEntry) => {
    const name = editing?.kind === "edit" ? editing.name : null;
    void saveEntries(name === null ? [...entries, entry] : entries.map((e) => (e.name === name ? entry : e)));
  };
  const editable = (name: string, source: string) => source === "user" && entries.some((e) => e.name === name);
  const fileActions = (name: string) =>
    removing === name ? (
      <>
        <button className="danger small" data-testid="mcp-remove-confirm" disabled={busy} onClick={() => void saveEntries(entries.filter((e) => e.name !== name))}>
          Remove {name}
        </button>
        <button className="ghost small" onClick={() => setRemoving(null)}>
          Keep
        </button>
      </>
    ) : (
      <>
        <button className="small" data-testid="mcp-edit" disabled={busy} onClick={() => setEditing({ kind: "edit", name })}>
          Edit
        </button>
        <button className="ghost small" data-testid="mcp-remove" disabled={busy} title="Remove this server from your mcp.json" onClick={() => setRemoving(name)}>
          Remove
        </button>
      </>
    );
  const shown = new Set(view?.status.servers.map((s) => s.name));
  const notStarted = entries.filter((e) => !shown.has(e.name));
  const form = (initial: McpServerEntry) => (
    <McpServerForm
      key={editing?.kind === "edit" ? editing.name : "new"}
      initial={initial}
      others={entries.filter((e) => editing?.kind !== "edit" || e.name !== editing.name)}
      busy={busy}
      onSave={saveEntry}
      onCancel={() => setEditing(null)}
    />
  );

  return (
    <section className="panel mcp-panel" data-testid="mcp-panel">
      <h2>MCP servers</h2>
      {error && <p className="error-text" role="alert">{error}</p>}
      {view?.status.warnings.map((w) => (
        <p key={w} className="banner banner-error">{w}</p>
      ))}
      {view && view.status.servers.length === 0 && (
        <p className="muted">
          No MCP servers yet. Add one here, or put the workspace's in <PathText path={view.workspace_file} />
        </p>
      )}
      {view && (
        <p className="muted small">
          {view.status.enabled_tools} tools offered to the model (limit {view.status.tool_limit}).
        </p>
      )}
      <ul className="mcp-servers">
        {view?.status.servers.map((s) => (
          <li key={s.name} className="mcp-server" data-testid="mcp-server">
            <div className="mcp-server-head">
              <strong>{s.name}</strong>
              <span className="muted small">{s.source === "workspace" ? "workspace" : "yours"}</span>
              <span className={`mcp-state mcp-${s.state.kind}`}>{stateText(s.state)}</span>
              <span className="spacer" />
              {editable(s.name, s.source) && fileActions(s.name)}
              {s.state.kind === "awaiting_approval" && (
                <button className="primary small" disabled={busy} onClick={() => run(() => backend.mcpApprove(workspace, s.name))}>
                  Approve and start
                </button>
              )}
              <button className="small" disabled={busy} onClick={() => run(() => backend.mcpRestart(workspace, s.name))}>
                Restart
              </button>
              <label className="small">
                <input
                  type="checkbox"
                  checked={s.state.kind !== "disabled"}
                  onChange={(e) => run(() => backend.mcpSetEnabled(workspace, s.name, null, e.target.checked))}
                />{" "}
                on
              </label>
            </div>
            <code className="mcp-target">{s.target}</code>
            <span className="muted small mcp-timeout">Tool uses time out after {s.call_timeout_secs} s</span>
            {s.sandbox && (
              <span className="muted small" data-testid="mcp-sandbox">
                {sandboxText(s.sandbox.level, s.sandbox.network)}
              </span>
            )}
            {s.state.kind === "failed" && (
              <pre className="error-detail">
                {s.state.error}
                {s.state.stderr_tail ? `\n${s.state.stderr_tail}` : ""}
              </pre>
            )}
            {s.problems.map((p) => (
              <p key={p} className="error-text">{p}</p>
            ))}
            {s.tools.length > 0 && (
              <ul className="mcp-tools">
                {s.tools.map((t) => (
                  <li key={t.name}>
                    <label title={`${t.name}: ${t.description}`}>
                      <input
                        type="checkbox"
                        checked={t.enabled}
                        onChange={(e) => run(() => backend.mcpSetEnabled(workspace, s.name, t.server_tool, e.target.checked))}
                      />{" "}
                      <code className="mcp-tool-name">{t.server_tool}</code>
                      {t.read_only && <span className="muted small mcp-tool-flag">read-only</span>}
                      {t.destructive && <span className="error-text small mcp-tool-flag">destructive: always asks</span>}
                      {t.replaces && (
                        <span className="small mcp-replaces" data-testid="mcp-replaces">
                          {" "}
                          replaces the built-in <code>{t.replaces}</code>
                        </span>
                      )}
                    </label>
                  </li>
                ))}
              </ul>
            )}
            {editing?.kind === "edit" && editing.name === s.name && editable(s.name, s.source) && form(entries.find((e) => e.name === s.name) ?? emptyServer())}
          </li>
        ))}
        {notStarted.map((e) => (
          <li key={e.name} className="mcp-server" data-testid="mcp-server">
            <div className="mcp-server-head">
              <strong>{e.name}</strong>
              <span className="muted small">yours</span>
              <span className="mcp-state mcp-disabled">{e.enabled ? "not started" : "off"}</span>
              <span className="spacer" />
              {fileActions(e.name)}
            </div>
            <code className="mcp-target">{e.transport === "url" ? e.url : [e.command, ...e.args].join(" ")}</code>
            {e.transport === "command" && (
              <span className="muted small" data-testid="mcp-sandbox">
                {sandboxText(e.sandbox, e.sandboxNetwork)}
              </span>
            )}
            {editing?.kind === "edit" && editing.name === e.name && form(e)}
          </li>
        ))}
      </ul>
      {view && parsed && !parsed.ok && (
        <p className="warn-text small" data-testid="mcp-json-invalid">
          Your mcp.json is not valid JSON ({parsed.error}); fix it in the JSON view to use the form again.
        </p>
      )}
      {view && editing?.kind === "add" && form(emptyServer())}
      {view && (
        <div className="row">
          <button data-testid="mcp-add" disabled={busy || editing !== null || !parsed?.ok} onClick={() => setEditing({ kind: "add" })}>
            Add server
          </button>
          <span className="spacer" />
          <button className="ghost small" data-testid="mcp-advanced" aria-expanded={advanced || !parsed?.ok} onClick={() => setAdvanced((a) => !a)}>
            Advanced (JSON)
          </button>
        </div>
      )}
      {view && (advanced || (parsed && !parsed.ok)) && (
        <div className="field" data-testid="mcp-json">
          <span className="mcp-file">
            Your servers, in <PathText path={view.user_file} />
          </span>
          <textarea
            aria-label="Your servers (JSON)"
            className="mono mcp-editor"
            rows={8}
            value={text}
            placeholder={EXAMPLE}
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
          />
          <div className="row end">
            <button disabled={busy || text === view.user_text} onClick={() => run(() => backend.mcpSaveUserConfig(workspace, text))}>
              Save and restart servers
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
