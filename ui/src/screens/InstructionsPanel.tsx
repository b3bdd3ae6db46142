// The workspace's project instructions in Settings: which rule files the agent follows here
// (your own AGENTS.md for every workspace, the workspace root's, and those of folders below it,
// with the fallbacks CLAUDE.md, GEMINI.md and .clinerules), their size, and whether they are cut.
import { useEffect, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { RuleFileKind } from "../protocol/RuleFileKind";
import type { RuleFilesView } from "../protocol/RuleFilesView";

const KINDS: Record<RuleFileKind, string> = {
  agents_md: "AGENTS.md",
  claude_md: "CLAUDE.md, read as there is no AGENTS.md",
  gemini_md: "GEMINI.md, read as there is no AGENTS.md",
  clinerules: ".clinerules, read as there is no AGENTS.md",
  user: "yours, for every workspace",
};

function size(bytes: number): string {
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
  if (bytes >= 1 << 10) return `${(bytes / (1 << 10)).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

export function InstructionsPanel({ backend, workspace }: { backend: Backend; workspace: string }) {
  const [view, setView] = useState<RuleFilesView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setView(null);
    setError(null);
    backend.ruleFiles(workspace).then(setView, (e: unknown) => setError(errorMessage(e)));
  }, [backend, workspace]);
  return (
    <section className="panel" data-testid="instructions-panel">
      <h2>Project instructions</h2>
      <p className="muted small">
        The agent follows the AGENTS.md of each folder (CLAUDE.md, GEMINI.md or .clinerules where a folder has none). Yours
        and the workspace root's are given at the start of a session; a folder's own when the agent first works in it.
        Changes apply to new sessions.
      </p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {!view && !error && <p className="muted small">Looking for instruction files…</p>}
      {view && view.files.length === 0 && (
        <p className="muted small" data-testid="no-instructions">
          No instruction files. Add an AGENTS.md to the workspace, or your own at <code>{view.user_file}</code>.
        </p>
      )}
      {view && view.files.length > 0 && (
        <ul className="rules-list">
          {view.files.map((file) => (
            <li key={file.path} data-testid="instruction-file">
              <code>{file.path}</code>
              <span className="muted small">{KINDS[file.kind]}</span>
              <span className="muted small">{size(file.bytes)}</span>
              {file.truncated && <span className="warn-text small">only the first 64 KiB are read</span>}
              {!file.in_system_prompt && <span className="muted small">when the agent works in its folder</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
