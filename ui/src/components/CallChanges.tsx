// The files a command (or an external tool) changed in the workspace, from the checkpoints
// before and after it: each with how it changed, and its diff on demand.
import type { WorkspaceChange } from "../protocol/WorkspaceChange";
import { DiffView } from "./DiffView";

const MARK = { added: "A", modified: "M", deleted: "D" } as const;
const WORD = { added: "added", modified: "changed", deleted: "deleted" } as const;

export function CallChanges({ changes }: { changes: WorkspaceChange[] }) {
  if (changes.length === 0) {
    return (
      <div className="call-changes muted small" data-testid="call-changes">
        Changed no files in the workspace.
      </div>
    );
  }
  const files = changes.length === 1 ? "1 file" : `${changes.length} files`;
  return (
    <div className="call-changes" data-testid="call-changes">
      <div className="call-changes-head">Changed {files} in the workspace</div>
      <ul>
        {changes.map((change) => (
          <li key={change.path} className={`change-${change.kind}`}>
            <details>
              <summary>
                <span className="change-mark" title={WORD[change.kind]}>
                  {MARK[change.kind]}
                </span>{" "}
                <code>{change.path}</code>
                {change.diff && (
                  <span className="muted small">
                    {" "}
                    +{change.diff.added} −{change.diff.removed}
                  </span>
                )}
              </summary>
              {change.diff ? (
                <DiffView diff={change.diff} />
              ) : (
                <div className="muted small">Not text: no diff to show.</div>
              )}
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}
