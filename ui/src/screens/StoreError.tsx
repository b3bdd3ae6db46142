import { useState } from "react";
import { errorMessage } from "../backend";

interface Props {
  path: string;
  message: string;
  canMoveAside: boolean;
  onMoveAside: () => Promise<void>;
}

export function StoreError({ path, message, canMoveAside, onMoveAside }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main className="centered-page" data-testid="store-error">
      <div className="panel" role="alert">
        <h1>Foreman cannot open its database</h1>
        <p>
          The file <code>{path}</code> could not be opened.
        </p>
        <pre className="error-detail">{message}</pre>
        {canMoveAside ? (
          <>
            <p className="muted">
              Moving it aside renames it (nothing is deleted) and starts with a fresh database. Your
              workspace folders are not touched.
            </p>
            <button
              className="primary"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onMoveAside();
                } catch (e) {
                  setError(errorMessage(e));
                } finally {
                  setBusy(false);
                }
              }}
            >
              Move it aside and start fresh
            </button>
          </>
        ) : (
          <p className="muted">Check the file's permissions and free disk space, then restart Foreman.</p>
        )}
        {error && (
          <div className="banner banner-error" role="alert">
            {error}
          </div>
        )}
      </div>
    </main>
  );
}
