// In the status bar: how many files the session changed in the workspace (the engine's one
// count: file tools, commands and MCP tools, against the workspace at the session's start), and
// a list of them (lines added and removed, how each was changed) from which each file's newest
// card is one click away, and what a file's changes amount to now one more (`onShowNet`).
import type { FileChanges } from "../session/changes";
import { usePopover } from "./usePopover";

interface Props {
  files: FileChanges[];
  /** Brings the conversation entry `itemId` into view. */
  onGoTo(itemId: number): void;
  /** Shows what the kept changes of `file` amount to now (offered for a stored session). */
  onShowNet?(file: FileChanges): void;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** How the file was changed, as short as it reads. */
function summary(file: FileChanges): string {
  const parts: string[] = [];
  if (file.kept > 1) parts.push(plural(file.kept, "change"));
  if (file.undone > 0) parts.push(`${file.undone} undone`);
  if (file.rewound > 0) parts.push(`${file.rewound} rewound`);
  if (file.partlyUndone > 0) parts.push(`${file.partlyUndone} partly undone`);
  if (file.byCommands > 0) parts.push(file.byCommands === 1 ? "by a command" : `by ${plural(file.byCommands, "command")}`);
  if (file.itemId === null) parts.push("outside the conversation");
  return parts.join(", ");
}

const KIND = { added: "new", deleted: "deleted", modified: null } as const;

export function ChangesButton({ files, onGoTo, onShowNet }: Props) {
  const { open, setOpen, box } = usePopover();
  if (files.length === 0) return null;
  const label = files.length === 1 ? "1 file changed" : `${files.length} files changed`;
  return (
    <div className="changes" ref={box}>
      <button
        type="button"
        className="chip changes-button"
        data-testid="changes-button"
        aria-expanded={open}
        title="Files this session changed in the workspace, by any tool or command"
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      {open && (
        <div className="changes-panel" role="dialog" aria-label="Files changed in this session" data-testid="changes-panel">
          <p className="muted">Changed since the session began</p>
          <ul>
            {files.map((file) => {
              const kind = KIND[file.kind];
              const said = summary(file);
              return (
                <li key={file.path} className="changes-item">
                  <button
                    type="button"
                    className={`ghost changes-row changes-${file.kind}`}
                    data-testid="changes-row"
                    disabled={file.itemId === null}
                    title={file.itemId === null ? file.path : `Go to the newest change of ${file.path}`}
                    onClick={() => {
                      if (file.itemId === null) return;
                      setOpen(false);
                      onGoTo(file.itemId);
                    }}
                  >
                    <code>{file.path}</code>
                    {kind && <span className={`diff-kind diff-kind-${file.kind === "added" ? "create" : "delete"}`}>{kind}</span>}
                    {file.text ? (
                      <span className="diff-counts">
                        <span className="diff-count-added">+{file.added}</span>{" "}
                        <span className="diff-count-removed">−{file.removed}</span>
                      </span>
                    ) : (
                      <span className="muted">binary</span>
                    )}
                    {said && <span className="muted">{said}</span>}
                  </button>
                  {onShowNet && file.callIds.length > 0 && file.byCommands === 0 && (
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
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
