// The session's vital signs and controls: model, tokens, approval mode, Stop.
import type { ApprovalMode } from "../protocol/ApprovalMode";
import type { Usage } from "../session/state";

interface Props {
  provider: string;
  model: string;
  usage: Usage;
  mode: ApprovalMode;
  running: boolean;
  retrying: string | null;
  onMode(mode: ApprovalMode): void;
  onStop(): void;
}

const MODES: { mode: ApprovalMode; label: string }[] = [
  { mode: "read-only", label: "Read only" },
  { mode: "ask", label: "Ask before changes" },
  { mode: "auto-edit", label: "Auto-edit files" },
  { mode: "yolo", label: "Run everything" },
];

function tokens(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export function StatusBar(p: Props) {
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span className="status-model" title="Provider and model">
        {p.provider ? `${p.provider} · ${p.model}` : "No session yet"}
      </span>
      <span className="muted" title="Tokens sent / received in this session">
        ↑ {tokens(p.usage.totalInput)} ↓ {tokens(p.usage.totalOutput)} tokens
      </span>
      {p.retrying && <span className="status-retry" role="status">{p.retrying}</span>}
      <span className="spacer" />
      <label className="status-mode">
        <span className="muted">Approvals</span>
        <select aria-label="Approval mode" value={p.mode} onChange={(e) => p.onMode(e.target.value as ApprovalMode)}>
          {MODES.map((m) => (
            <option key={m.mode} value={m.mode}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      <button className="danger" data-testid="stop" disabled={!p.running} onClick={p.onStop}>
        Stop
      </button>
    </footer>
  );
}
