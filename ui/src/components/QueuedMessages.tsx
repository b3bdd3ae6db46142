// The user's messages sent while the agent works, pinned above the composer: the model reads
// them from its next request on, and each moves into the conversation when the engine takes it.
// Until then the user can take one back into the message box, to change it or drop it.
import type { QueuedMessage } from "../session/state";

interface Props {
  messages: QueuedMessage[];
  /** Asks the engine for the `index`-th waiting message back; absent where nothing can be asked. */
  onTakeBack?: (index: number, message: QueuedMessage) => void;
}

export function QueuedMessages({ messages, onTakeBack }: Props) {
  if (messages.length === 0) return null;
  return (
    <section className="queued-messages" aria-label="Messages waiting for the agent" data-testid="queued-messages">
      <h2>
        Waiting <span className="muted">the agent reads {messages.length === 1 ? "this" : `these ${messages.length}`} before its next step</span>
      </h2>
      <ul>
        {messages.map((m, index) => (
          <li key={m.id}>
            {onTakeBack && (
              // aria-disabled, not disabled: the button keeps the focus while the engine answers.
              <button
                className="ghost small"
                data-testid="take-back"
                aria-disabled={m.takingBack}
                aria-describedby={`queued-${m.id}`}
                title="Back into the message box, to change or send later; the agent will not read it"
                onClick={() => {
                  if (!m.takingBack) onTakeBack(index, m);
                }}
              >
                {m.takingBack ? "Taking back…" : "Take back"}
              </button>
            )}
            <span className="queued-text" id={`queued-${m.id}`} data-testid="queued-message">
              {m.text}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
