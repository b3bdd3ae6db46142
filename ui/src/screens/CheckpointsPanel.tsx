// The workspace's checkpoints in Settings: how much disk they take (the oldest go past 1 GiB),
// and clearing them after a confirmation (rewinds then have nothing to go back to; the files
// are not touched).
import { useEffect, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import { formatBytes as size } from "../format";

export function CheckpointsPanel({ backend, workspace }: { backend: Backend; workspace: string }) {
  const [used, setUsed] = useState<number | null>(null);
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    backend.checkpointsUsage(workspace).then(setUsed, (e: unknown) => setMessage(errorMessage(e)));
  }, [backend, workspace]);
  const clear = () => {
    setAsking(false);
    backend.clearCheckpoints(workspace).then(
      (freed) => {
        setUsed(0);
        setMessage(`Cleared: ${size(freed)} freed.`);
      },
      (e: unknown) => setMessage(errorMessage(e)),
    );
  };
  return (
    <section className="panel" data-testid="checkpoints-panel">
      <h2>Checkpoints</h2>
      <p className="muted small">
        Before each step that can change files, the whole workspace is recorded outside it, so any message can be
        rewound, also what commands did. The oldest go when they take more than 1 GiB.
      </p>
      <div className="row">
        <span data-testid="checkpoints-usage">
          {used === null ? "Measuring…" : `This workspace's checkpoints take ${size(used)}.`}
        </span>
        {!asking ? (
          <button type="button" onClick={() => setAsking(true)} disabled={!used}>
            Clear…
          </button>
        ) : (
          <span className="msg-confirm" role="group" aria-label="Clear the checkpoints?">
            <span>Clear them? Rewinds will have nothing to go back to; your files stay as they are.</span>
            <button type="button" data-testid="confirm-clear-checkpoints" onClick={clear}>
              Clear checkpoints
            </button>
            <button type="button" className="ghost" onClick={() => setAsking(false)}>
              Keep them
            </button>
          </span>
        )}
      </div>
      {message && <p className="muted small" role="status">{message}</p>}
    </section>
  );
}
