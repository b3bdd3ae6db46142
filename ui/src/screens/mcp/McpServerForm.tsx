// The form of one MCP server of the user's file: name, a command with its arguments and its
// sandbox (what it may write, the network; off by default, said plainly) or a URL, environment
// variables (headers for a URL), on/off, the built-in tools it replaces, a timeout.
import { useState } from "react";
import type { SandboxLevel } from "../../protocol/SandboxLevel";
import type { McpServerEntry, Transport } from "./mcpConfig";
import { entryProblem, parsePairs } from "./mcpConfig";
import { sandboxText } from "./sandboxText";

interface Props {
  /** The server as it is, or an empty one to add. */
  initial: McpServerEntry;
  /** The file's other servers, whose names this one may not take. */
  others: McpServerEntry[];
  busy: boolean;
  onSave(entry: McpServerEntry): void;
  onCancel(): void;
}

const lines = (values: string[]) => values.join("\n");
const pairLines = (values: [string, string][]) => values.map(([k, v]) => `${k}=${v}`).join("\n");

export function McpServerForm({ initial, others, busy, onSave, onCancel }: Props) {
  const [name, setName] = useState(initial.name);
  const [transport, setTransport] = useState<Transport>(initial.transport);
  const [command, setCommand] = useState(initial.command);
  const [args, setArgs] = useState(lines(initial.args));
  const [url, setUrl] = useState(initial.url);
  const [env, setEnv] = useState(pairLines(initial.env));
  const [enabled, setEnabled] = useState(initial.enabled);
  const [replaces, setReplaces] = useState(initial.replaces.join(", "));
  const [timeout, setTimeoutText] = useState(initial.timeout === null ? "" : String(initial.timeout));
  const [sandbox, setSandbox] = useState<SandboxLevel>(initial.sandbox);
  const [network, setNetwork] = useState(initial.sandboxNetwork);

  const entry: McpServerEntry = {
    ...initial,
    name: name.trim(),
    transport,
    command: command.trim(),
    args: args.split("\n").map((a) => a.trim()).filter(Boolean),
    url: url.trim(),
    env: parsePairs(env),
    enabled,
    replaces: replaces.split(/[,\s]+/).filter(Boolean),
    timeout: timeout.trim() ? Number(timeout) : null,
    sandbox,
    sandboxNetwork: sandbox !== "off" && network,
  };
  const problem = entryProblem(entry, others);

  return (
    <form
      className="mcp-form"
      data-testid="mcp-form"
      aria-label={initial.name ? `Edit ${initial.name}` : "Add a server"}
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem) onSave(entry);
      }}
    >
      <label className="field">
        <span>Name</span>
        <input data-testid="mcp-form-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="everything" />
      </label>
      <div className="field" role="radiogroup" aria-label="How to reach it">
        <span>Runs as</span>
        <div className="row">
          <label className="small">
            <input type="radio" name="transport" checked={transport === "command"} onChange={() => setTransport("command")} /> a command
          </label>
          <label className="small">
            <input type="radio" name="transport" data-testid="mcp-form-url-kind" checked={transport === "url"} onChange={() => setTransport("url")} /> a URL
          </label>
        </div>
      </div>
      {transport === "command" ? (
        <>
          <label className="field">
            <span>Command</span>
            <input data-testid="mcp-form-command" value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npx" />
          </label>
          <label className="field" title="One argument a line, passed as they are (no shell)">
            <span>Arguments, one a line</span>
            <textarea className="mono" rows={3} data-testid="mcp-form-args" value={args} onChange={(e) => setArgs(e.target.value)} placeholder={"-y\n@modelcontextprotocol/server-everything"} />
          </label>
          <label className="field" title="What the server's process may touch">
            <span>Sandbox</span>
            <select data-testid="mcp-form-sandbox" value={sandbox} onChange={(e) => setSandbox(e.target.value as SandboxLevel)}>
              <option value="off">Off</option>
              <option value="read-only">Read-only</option>
              <option value="workspace-write">Workspace only</option>
            </select>
          </label>
          <label className="field check" title="Whether the sandboxed server may open network connections">
            <input type="checkbox" data-testid="mcp-form-network" checked={sandbox === "off" || network} disabled={sandbox === "off"} onChange={(e) => setNetwork(e.target.checked)} />
            <span>Network</span>
          </label>
          <p className="muted small" data-testid="mcp-form-sandbox-text">
            {sandboxText(sandbox, network)}
          </p>
        </>
      ) : (
        <label className="field">
          <span>URL</span>
          <input data-testid="mcp-form-url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/mcp" />
        </label>
      )}
      <label className="field" title={transport === "command" ? "Set for the server's process, one NAME=value a line" : "Sent with every request, one Name=value a line"}>
        <span>{transport === "command" ? "Environment" : "Headers"}</span>
        <textarea className="mono" rows={2} data-testid="mcp-form-env" value={env} onChange={(e) => setEnv(e.target.value)} placeholder="NAME=value" />
      </label>
      <label className="field" title="Built-in tools whose place this server's tools take, e.g. web_fetch">
        <span>Replaces built-in tools</span>
        <input data-testid="mcp-form-replaces" value={replaces} onChange={(e) => setReplaces(e.target.value)} placeholder="none" />
      </label>
      <label className="field" title="How long one call may take before it is stopped">
        <span>Call timeout (seconds)</span>
        <input type="number" min={1} max={3600} data-testid="mcp-form-timeout" value={timeout} onChange={(e) => setTimeoutText(e.target.value)} placeholder="default" />
      </label>
      <label className="field check">
        <input type="checkbox" data-testid="mcp-form-enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <span>On</span>
      </label>
      {problem && (
        <p className="muted small" data-testid="mcp-form-problem">
          {problem}
        </p>
      )}
      <div className="row end">
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" data-testid="mcp-form-save" disabled={busy || problem !== null}>
          Save server
        </button>
      </div>
    </form>
  );
}
