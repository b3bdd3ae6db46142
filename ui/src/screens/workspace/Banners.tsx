// The notices above the conversation, each with its one action: what setup is missing, that the
// window was loaded again, MCP warnings, and the error to dismiss.
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
      {p.problem && (
        <div className="banner banner-error" role="alert" data-testid="error-banner">
          <span>{p.problem}</span>
          <button onClick={p.onDismissProblem}>Dismiss</button>
        </div>
      )}
    </>
  );
}
