// Settings → About: "Copy diagnostics", the same text Help → Copy Diagnostics puts on the
// clipboard (version, OS, WebKitGTK, provider and model, paths, the end of the log; keys taken
// out), shown here too so it can be read before it is pasted anywhere.
import { useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";

export function DiagnosticsPanel({ backend }: { backend: Backend }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function copy() {
    setBusy(true);
    setError(null);
    try {
      setText(await backend.copyDiagnostics());
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="field" data-testid="diagnostics">
      <span>Diagnostics</span>
      <p className="muted small">
        For a bug report: versions, your system, the provider and model, where files are kept and the end of the log.
        Keys are taken out.
      </p>
      <div className="row">
        <button data-testid="copy-diagnostics" disabled={busy} onClick={copy}>
          Copy diagnostics
        </button>
        {text !== null && (
          <span className="muted small" role="status" data-testid="diagnostics-copied">
            Copied to the clipboard.
          </span>
        )}
      </div>
      {error && (
        <p className="error-text" data-testid="diagnostics-error">
          {error}
        </p>
      )}
      {text !== null && (
        <pre className="diagnostics-text" data-testid="diagnostics-text">
          {text}
        </pre>
      )}
    </div>
  );
}
