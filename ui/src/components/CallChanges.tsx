// The files a command (or an external tool) changed in the workspace, from the checkpoints
// before and after it: each with how it changed, and its diff on demand. Its look comes from
// where the change stands on disk (session/changeLook.ts): rewound, the list is faded and struck
// under a "Rewound" mark, and each diff with it.
import { Fragment } from "react";
import type { WorkspaceChange } from "../protocol/WorkspaceChange";
import type { ChangeLook } from "../session/changeLook";
import { DiffView } from "./DiffView";
import { pathParts } from "./PathText";

const MARK = { added: "A", modified: "M", deleted: "D" } as const;
const WORD = { added: "added", modified: "changed", deleted: "deleted" } as const;

/** A path that breaks only after a slash. */
function Path({ path }: { path: string }) {
  return (
    <code className="change-path">
      {pathParts(path).map((part, i) => (
        <Fragment key={i}>
          {part}
          <wbr />
        </Fragment>
      ))}
    </code>
  );
}

export function CallChanges({ changes, change }: { changes: WorkspaceChange[]; change?: ChangeLook }) {
  if (changes.length === 0) {
    return (
      <div className="call-changes muted small" data-testid="call-changes">
        Changed no files in the workspace.
      </div>
    );
  }
  const faded = change?.faded ?? false;
  const files = changes.length === 1 ? "1 file" : `${changes.length} files`;
  return (
    <div className={faded ? "call-changes change-faded" : "call-changes"} data-testid="call-changes" data-disk={change?.disk ?? undefined}>
      <div className="call-changes-head">
        Changed {files} in the workspace
        {change?.mark && (
          <>
            {" "}
            <span className="diff-mark">{change.mark}</span>
          </>
        )}
      </div>
      <ul>
        {changes.map((one) => (
          <li key={one.path} className={`change-${one.kind}`}>
            <details>
              <summary>
                <span className="change-mark" title={WORD[one.kind]}>
                  {MARK[one.kind]}
                </span>{" "}
                <Path path={one.path} />
                {one.diff && (
                  <span className="muted small change-counts">
                    {" "}
                    +{one.diff.added} −{one.diff.removed}
                  </span>
                )}
              </summary>
              {one.diff ? (
                <DiffView diff={one.diff} change={change} />
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
