// MCP servers of the open workspace: state, call timeout, tools, approval of workspace servers,
// restart, on/off per server and per tool, and the user's own mcp.json.
import { useEffect, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { McpView } from "../protocol/McpView";
import type { ServerState } from "../protocol/ServerState";

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

  const apply = (next: McpView) => {
    setView(next);
    setText(next.user_text);
    setError(null);
  };
  useEffect(() => {
    backend.mcpStatus(workspace).then(apply, (e: unknown) => setError(errorMessage(e)));
  }, [backend, workspace]);

  const run = async (work: () => Promise<McpView>) => {
    setBusy(true);
    try {
      apply(await work());
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel mcp-panel" data-testid="mcp-panel">
      <h2>Tool servers (MCP)</h2>
      {error && <p className="error-text" role="alert">{error}</p>}
      {view?.status.warnings.map((w) => (
        <p key={w} className="banner banner-error">{w}</p>
      ))}
      {view && view.status.servers.length === 0 && (
        <p className="muted">No MCP servers. Add them to your file below or to <code>{view.workspace_file}</code>.</p>
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
            <span className="muted small mcp-timeout">Calls time out after {s.call_timeout_secs} s</span>
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
                    <label title={t.description}>
                      <input
                        type="checkbox"
                        checked={t.enabled}
                        onChange={(e) => run(() => backend.mcpSetEnabled(workspace, s.name, t.server_tool, e.target.checked))}
                      />{" "}
                      <code>{t.name}</code>
                      {t.read_only && <span className="muted small"> read-only</span>}
                      {t.destructive && <span className="error-text small"> destructive: always asks</span>}
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
          </li>
        ))}
      </ul>
      {view && (
        <label className="field">
          <span>Your servers ({view.user_file})</span>
          <textarea
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
        </label>
      )}
    </section>
  );
}
