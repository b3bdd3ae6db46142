// Settings › Agent: how many requests a message may make, the provider's timeouts, notifications.
import type { AppSettings } from "../../protocol/AppSettings";

interface Props {
  draft: AppSettings;
  hidden: boolean;
  onDraft(next: AppSettings): void;
  onProvider(change: Partial<AppSettings["provider"]>): void;
}

const whole = (value: string) => Math.max(1, Number(value) || 1);

export function AgentSection({ draft, hidden, onDraft, onProvider }: Props) {
  return (
    <section className="panel" hidden={hidden} data-testid="settings-agent">
      <h2>Agent</h2>
      <label className="field" title="The most model requests one message may start before the agent stops and asks you to go on">
        <span>Requests per message</span>
        <input type="number" min={1} max={500} value={draft.max_iterations} onChange={(e) => onDraft({ ...draft, max_iterations: whole(e.target.value) })} />
      </label>
      <label className="field" title="How long to wait for the provider to accept the connection">
        <span>Connect timeout (s)</span>
        <input type="number" min={1} value={draft.provider.connect_timeout_secs} onChange={(e) => onProvider({ connect_timeout_secs: whole(e.target.value) })} />
      </label>
      <label className="field" title="Give up on an answer when the model sends nothing for this long">
        <span>Silence timeout (s)</span>
        <input type="number" min={1} value={draft.provider.idle_timeout_secs} onChange={(e) => onProvider({ idle_timeout_secs: whole(e.target.value) })} />
      </label>
      <label className="field check" title="A desktop notification when an approval waits and Foreman is in the background">
        <input type="checkbox" checked={draft.notify_approvals} onChange={(e) => onDraft({ ...draft, notify_approvals: e.target.checked })} />
        <span>Notify me of waiting approvals</span>
      </label>
    </section>
  );
}
