// Settings › External agents: who can do a task's work besides Foreman's own agent. The presets
// (Claude Code, Codex, Gemini CLI), found when installed, with how to install one that is not,
// and the person's own agents from agents.json. Each runs in Foreman's sandbox unless it is
// marked to run outside it, which the row says plainly. New task picks one.
import { useEffect, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { AgentInfo } from "../../protocol/AgentInfo";

const EXAMPLE = `{"agents": [{"name": "goose", "command": "goose", "args": ["acp"],
  "env": {"GOOSE_MODE": "approve"}, "ownPaths": ["~/.config/goose"]}]}`;

function AgentRow({ agent }: { agent: AgentInfo }) {
  return (
    <li className="external-agent" data-testid="external-agent" data-installed={agent.path ? "true" : "false"}>
      <strong>{agent.name}</strong>
      <span className="muted small">{agent.preset ? " preset" : " from agents.json"}</span>
      <div className="small">
        {agent.path ? (
          <span>
            Installed: <code>{agent.path}</code>
          </span>
        ) : agent.install ? (
          <span>
            Not installed. Install it with <code>{agent.install}</code>
          </span>
        ) : (
          <span>
            <code>{agent.command}</code> was not found on your PATH.
          </span>
        )}
      </div>
      <div className={agent.unsandboxed ? "small task-warn" : "muted small"}>
        {agent.unsandboxed
          ? "Runs with your full rights, outside Foreman's sandbox (its requests still ask)."
          : "Runs in Foreman's sandbox: it writes only where its task works and its own settings."}
      </div>
    </li>
  );
}

export function ExternalAgentsSection({ backend }: { backend: Backend }) {
  const [agents, setAgents] = useState<AgentInfo[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    backend.listAgents().then(
      (list) => live && setAgents(list),
      (e: unknown) => live && setProblem(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [backend]);
  return (
    <section className="settings-section" aria-label="External agents" data-testid="external-agents">
      <h2>External agents</h2>
      <p className="muted">
        Foreman's own agent is the default. An external agent that speaks ACP (Claude Code, Codex, Gemini CLI, or your
        own) can do a task's work instead: choose it in New task. Its edits and commands show as cards and ask as your
        approval mode says; checkpoints, rewind and the merge queue work as for Foreman's own.
      </p>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      {agents === null && !problem && <p className="muted">Looking for agents…</p>}
      {agents && (
        <ul className="external-agent-list">
          {agents.map((a) => (
            <AgentRow key={a.name} agent={a} />
          ))}
        </ul>
      )}
      <p className="muted small">
        Add your own in <code>agents.json</code>, beside Foreman's settings file (About shows the folder), for example:
      </p>
      <pre className="small">{EXAMPLE}</pre>
    </section>
  );
}
