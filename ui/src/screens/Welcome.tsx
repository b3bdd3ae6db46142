import { useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { RecentWorkspace } from "../protocol/RecentWorkspace";
import type { WorkspaceView } from "../protocol/WorkspaceView";
import { Logo } from "../components/Logo";
import { formatWhen } from "../format";
import { useNow } from "../useNow";
import { openFolderInNewWindow } from "./newWindow";

interface Props {
  backend: Backend;
  recent: RecentWorkspace[];
  initialError: string | null;
  onOpened: (workspace: WorkspaceView) => void;
}

export function Welcome({ backend, recent: initialRecent, initialError, onOpened }: Props) {
  const [recent, setRecent] = useState(initialRecent);
  const [error, setError] = useState(initialError);
  const [busy, setBusy] = useState(false);
  const now = useNow();

  async function open(path: string) {
    setBusy(true);
    setError(null);
    try {
      onOpened(await backend.openWorkspace(path));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  async function chooseFolder() {
    try {
      const path = await backend.chooseFolder();
      if (path) await open(path);
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  async function forget(path: string) {
    try {
      setRecent(await backend.forgetWorkspace(path));
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <main className="centered-page welcome" data-testid="welcome">
      <div className="welcome-column">
        <header className="welcome-header">
          <Logo size={56} />
          <div>
            <h1>Foreman</h1>
            <p className="muted">Supervise an AI coding agent in a folder you choose.</p>
          </div>
        </header>

        {error && (
          <div className="banner banner-error" role="alert" data-testid="welcome-error">
            <strong>Could not open that folder.</strong> {error}
          </div>
        )}

        <div className="welcome-actions">
          <button className="primary large" onClick={chooseFolder} disabled={busy}>
            Open folder…
          </button>
          <button
            className="ghost"
            data-testid="open-in-new-window"
            onClick={async () => setError(await openFolderInNewWindow(backend))}
            disabled={busy}
          >
            Open folder in new window…
          </button>
        </div>

        <section className="recent" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent workspaces</h2>
          {recent.length === 0 ? (
            <p className="muted empty">Folders you open will be listed here.</p>
          ) : (
            <ul className="recent-list" data-testid="recent-list">
              {recent.map((ws) => (
                <li key={ws.path} className="recent-item">
                  <button
                    className="recent-open"
                    onClick={() => open(ws.path)}
                    disabled={busy}
                    title={`Open ${ws.path}`}
                  >
                    <span className="recent-name">{ws.name}</span>
                    <span className="recent-path">{ws.path}</span>
                  </button>
                  <span className="recent-when muted">{formatWhen(ws.last_opened, now)}</span>
                  <button
                    className="icon-button"
                    aria-label={`Remove ${ws.name} from the list`}
                    title="Remove from list (the folder is not touched)"
                    onClick={() => forget(ws.path)}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </main>
  );
}
