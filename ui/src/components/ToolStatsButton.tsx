// In the status bar: how many times the agent used a tool in this session, and a table of how
// each tool's uses went (successes, failures, timeouts, mean and 95th-percentile time), from the
// engine's `tool_stats` events. The engine's "calls" are "tool uses" to the person (../glossary.ts).
import type { ToolStats } from "../protocol/ToolStats";
import { formatDuration } from "./toolSummary";
import { usePopover } from "./usePopover";
import { count, WORDS } from "../glossary";

export function ToolStatsButton({ stats }: { stats: Record<string, ToolStats> }) {
  const { open, setOpen, box } = usePopover();
  const rows = Object.values(stats).sort((a, b) => a.tool.localeCompare(b.tool));
  if (rows.length === 0) return null;
  const uses = rows.reduce((n, r) => n + r.calls, 0);
  const failed = rows.reduce((n, r) => n + r.failed, 0);
  return (
    <div className="changes" ref={box}>
      <button
        type="button"
        className="ghost changes-button"
        data-testid="tool-stats-button"
        aria-expanded={open}
        title="How the agent's tool uses went in this session"
        onClick={() => setOpen((o) => !o)}
      >
        {count(uses, WORDS.toolUse)}
        {failed > 0 && <span className="status-failed"> · {failed} failed</span>}
      </button>
      {open && (
        <div className="changes-panel" role="dialog" aria-label="Tool uses in this session" data-testid="tool-stats-panel">
          <table className="tool-stats">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Uses</th>
                <th scope="col">Failed</th>
                <th scope="col">Timed out</th>
                <th scope="col">Mean</th>
                <th scope="col">95th %</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.tool} data-testid="tool-stats-row">
                  <td>
                    <code>{r.tool}</code>
                  </td>
                  <td>{r.calls}</td>
                  <td className={r.failed > 0 ? "status-failed" : undefined}>{r.failed}</td>
                  <td>{r.timed_out}</td>
                  <td>{formatDuration(r.mean_ms)}</td>
                  <td>{formatDuration(r.p95_ms)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
