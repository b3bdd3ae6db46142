// In the status bar: how many files the agent's file tools changed in this session, and a list
// of them (lines added and removed, how many changes, which were undone) from which each file's
// newest card is one click away, and what its changes amount to now one more (`onShowNet`).
import type { FileChanges } from "../session/changes";
import { usePopover } from "./usePopover";

interface Props {
  files: FileChanges[];
  /** Brings the conversation entry `itemId` into view. */
  onGoTo(itemId: number): void;
  /** Shows what the kept changes of `file` amount to now (offered for a stored session). */
  onShowNet?(file: FileChanges): void;
}

function summary(file: FileChanges): string {
  if (file.kept === 0) {
    // Nothing of it is on disk: each change undone or rewound, said as its card says it.
    if (file.rewound === 0) return file.undone === 1 ? "undone" : `${file.undone} changes, all undone`;
    if (file.undone === 0) return file.rewound === 1 ? "rewound" : `${file.rewound} changes, all rewound`;
  }
  const changes = file.kept <= 1 ? "" : `${file.kept} changes`;
  const undone = file.undone === 0 ? "" : `${file.undone} undone`;
  const rewound = file.rewound === 0 ? "" : `${file.rewound} rewound`;
  const partly = file.partlyUndone === 0 ? "" : `${file.partlyUndone} partly undone`;
  return [changes, undone, rewound, partly].filter(Boolean).join(", ");
}

export function ChangesButton({ files, onGoTo, onShowNet }: Props) {
  const { open, setOpen, box } = usePopover();
  if (files.length === 0) return null;
  const kept = files.filter((f) => f.kept > 0).length;
  const label = kept === 0 ? "Changes undone" : kept === 1 ? "1 file changed" : `${kept} files changed`;
  return (
    <div className="changes" ref={box}>
      <button
        type="button"
        className="chip changes-button"
        data-testid="changes-button"
        aria-expanded={open}
        title="Files the agent's file tools changed in this session"
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      {open && (
        <div className="changes-panel" role="dialog" aria-label="Files changed in this session" data-testid="changes-panel">
          <p className="muted">Changed by the agent's file tools in this session (commands it ran may have changed others):</p>
          <ul>
            {files.map((file) => (
              <li key={file.path} className="changes-item">
                <button
                  type="button"
                  className={file.kept === 0 ? "ghost changes-row changes-undone" : "ghost changes-row"}
                  data-testid="changes-row"
                  title={`Go to the newest change of ${file.path}`}
                  onClick={() => {
                    setOpen(false);
                    onGoTo(file.itemId);
                  }}
                >
                  <code>{file.path}</code>
                  {file.created && file.kept > 0 && <span className="diff-kind diff-kind-create">new</span>}
                  {file.kept > 0 && (
                    <span className="diff-counts">
                      <span className="diff-count-added">+{file.added}</span>{" "}
                      <span className="diff-count-removed">−{file.removed}</span>
                    </span>
                  )}
                  <span className="muted">{summary(file)}</span>
                </button>
                {onShowNet && file.kept > 0 && (
                  <button
                    type="button"
                    className="ghost changes-net"
                    data-testid="changes-net"
                    title={`What the changes to ${file.path} amount to now, in one diff`}
                    onClick={() => {
                      setOpen(false);
                      onShowNet(file);
                    }}
                  >
                    Diff
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
