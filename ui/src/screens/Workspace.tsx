import type { WorkspaceView } from "../protocol/WorkspaceView";
import { Logo } from "../components/Logo";

interface Props {
  workspace: WorkspaceView;
  onClose: () => void;
}

export function Workspace({ workspace, onClose }: Props) {
  return (
    <div className="workspace" data-testid="workspace">
      <header className="workspace-header">
        <button className="ghost back" onClick={onClose} aria-label="Back to the welcome screen">
          <Logo size={22} /> <span>Workspaces</span>
        </button>
        <div className="workspace-title">
          <h1 data-testid="workspace-name">{workspace.name}</h1>
          <span className="workspace-path muted" data-testid="workspace-path" title={workspace.path}>
            {workspace.path}
          </span>
        </div>
      </header>
      <main className="conversation-empty">
        <div className="panel subtle">
          <h2>Ready when you are</h2>
          <p className="muted">
            The agent will work inside <code>{workspace.path}</code> and nowhere else. Every edit and
            command it proposes waits for your approval.
          </p>
        </div>
      </main>
    </div>
  );
}
