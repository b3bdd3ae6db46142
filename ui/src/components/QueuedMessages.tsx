// The person's messages sent while the agent works, pinned above the composer: the model reads
// them from its next request on, and each moves into the conversation when the engine takes it.
import type { QueuedMessage } from "../session/state";

export function QueuedMessages({ messages }: { messages: QueuedMessage[] }) {
  if (messages.length === 0) return null;
  return (
    <section className="queued-messages" aria-label="Messages waiting for the agent" data-testid="queued-messages">
      <h2>
        Waiting <span className="muted">the agent reads {messages.length === 1 ? "this" : `these ${messages.length}`} before its next step</span>
      </h2>
      <ul>
        {messages.map((m) => (
          <li key={m.id} data-testid="queued-message">
            {m.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
