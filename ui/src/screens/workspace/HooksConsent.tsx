// The workspace's hooks that wait for your consent, above the composer: how many commands they
// run on your computer, each one (when it runs, for which tools, the command, its file), and
// the answer. None of them runs before you allow them (the engine holds them); "Allow these
// hooks" approves exactly this set (its hash), "Not now" leaves them off for this session.
import type { HooksView } from "../../protocol/HooksView";
import { CommandText } from "../../components/CommandText";
import { hookFor } from "../../components/hookWords";

interface Props {
  view: HooksView;
  /** You chose to run hooks outside the sandbox (Settings). */
  outsideSandbox: boolean;
  onAllow(hash: string): void;
  onNotNow(): void;
}

export function HooksConsent({ view, outsideSandbox, onAllow, onNotNow }: Props) {
  const hash = view.consent_hash;
  if (!hash) return null;
  const waiting = view.hooks.filter((h) => h.consent === "waiting");
  const count = waiting.length === 1 ? "1 hook that runs a command" : `${waiting.length} hooks that run commands`;
  return (
    <section className="banner banner-action hooks-consent" data-testid="hooks-consent" aria-label="Hooks waiting for your consent">
      <div className="hooks-consent-title">This workspace has {count} on your computer</div>
      <table>
        <thead>
          <tr>
            <th>When</th>
            <th>For</th>
            <th>Command</th>
            <th>From</th>
          </tr>
        </thead>
        <tbody>
          {waiting.map((h, i) => (
            <tr key={i} data-testid="hooks-consent-hook">
              <td>{h.event}</td>
              <td>{hookFor(h.event, h.matcher)}</td>
              <td>
                <CommandText command={h.command} />
              </td>
              <td>
                <code>{h.source}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {view.warnings.length > 0 && (
        <div className="small" data-testid="hooks-consent-warnings">
          Not read (their hooks stay off): {view.warnings.join(" ")}
        </div>
      )}
      <div className="small muted">
        They come from the workspace's files, so they run only once you allow them,{" "}
        {outsideSandbox ? "outside the sandbox with your full rights (as you chose in Settings)" : "in the sandbox as the agent's commands do"}.
        If they change, you are asked again.
      </div>
      <div className="row">
        <button className="primary" data-testid="allow-hooks" onClick={() => onAllow(hash)}>
          Allow these hooks
        </button>
        <button className="ghost" data-testid="hooks-not-now" onClick={onNotNow}>
          Not now
        </button>
      </div>
    </section>
  );
}
