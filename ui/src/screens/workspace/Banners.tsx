// The notices above the conversation, each with its one action, in a column of their own that
// pushes the conversation down (never over it) and scrolls itself when they are many: why Send
// is off (when the conversation is not empty: an empty one says it in its place), that the
// window was loaded again, MCP warnings, and the error to dismiss, in plain words with its
// details behind a toggle. Each thing is said once: Send's state is this banner's text, not a
// second line over the message box.
import { useState } from "react";
import { plainError } from "../../session/plainError";

interface Props {
  /** Why Send is off ("Send is off: …"), while setup is missing and the conversation is not empty. */
  sendBlocked: string | null;
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
  const any = p.sendBlocked || p.reloaded || p.toolWarnings.length > 0 || p.problem;
  if (!any) return null;
  return (
    <div className="pane-banners" data-testid="banners">
      {p.sendBlocked && (
        <div className="banner banner-action" data-testid="setup-banner">
          <span data-testid="send-blocked" role="status">
            {p.sendBlocked}
          </span>
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
    </div>
  );
}
