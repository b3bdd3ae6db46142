// The notices above the conversation, each with its one action: what setup is missing (when the
// conversation is not empty: an empty one says it in its place), that the window was loaded
// again, MCP warnings, and the error to dismiss, in plain words with its details behind a toggle.
import { useState } from "react";
import { plainError } from "../../session/plainError";

interface Props {
  missing: string | null;
  reloaded: boolean;
  onDismissReload: () => void;
  toolWarnings: string[];
  onDismissWarnings: () => void;
  problem: string | null;
  onDismissProblem: () => void;
  onOpenSettings: () => void;
}

function ProblemBanner({ problem, onDismiss }: { problem: string; onDismiss: () => void }) {
  const [open, setOpen] = useState(false);
  const plain = plainError(problem);
  return (
    <div className="banner banner-error" role="alert" data-testid="error-banner">
      <span>
        {plain ? <strong>{plain.title}</strong> : problem}
        {plain?.hint && ` ${plain.hint}`}
        {plain && open && <span className="notice-details">{problem}</span>}
      </span>
      {plain && (
        <button className="ghost small" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? "Hide details" : "Details"}
        </button>
      )}
      <button onClick={onDismiss}>Dismiss</button>
    </div>
  );
}

export function Banners(p: Props) {
  return (
    <>
      {p.missing && (
        <div className="banner banner-action" role="status" data-testid="setup-banner">
          <span>{p.missing}</span>
          <button className="primary" onClick={p.onOpenSettings}>
            Open settings
          </button>
        </div>
      )}
      {p.reloaded && (
        <div className="banner banner-action" role="status" data-testid="reload-notice">
          <span>The window stopped unexpectedly and was loaded again. Your sessions kept running.</span>
          <button className="ghost" onClick={p.onDismissReload}>
            Dismiss
          </button>
        </div>
      )}
      {p.toolWarnings.length > 0 && (
        <div className="banner banner-action" role="status" data-testid="tool-warning">
          <span>{p.toolWarnings.join(" ")}</span>
          <button onClick={p.onOpenSettings}>Tool servers…</button>
          <button className="ghost" onClick={p.onDismissWarnings}>
            Dismiss
          </button>
        </div>
      )}
      {p.problem && <ProblemBanner key={p.problem} problem={p.problem} onDismiss={p.onDismissProblem} />}
    </>
  );
}
