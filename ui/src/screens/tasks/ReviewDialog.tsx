// "Review changes": the task's whole change against its base, file by file in the diff view.
// From here the user drops a file or a part of one (reverted in the task's worktree, after a
// question), comments on a line, or sends the change back with a note; comments and notes go to
// the task's agent as the user's messages.
import { useEffect, useMemo, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import { DiffView } from "../../components/DiffView";
import { DiffRowActionsContext, type DiffRowActions } from "../../components/DiffRows";
import type { DiffLine } from "../../protocol/DiffLine";
import type { FileDiff } from "../../protocol/FileDiff";
import type { Hunk } from "../../protocol/Hunk";
import type { TaskChange } from "../../protocol/TaskChange";
import type { TaskSummary } from "../../protocol/TaskSummary";
import { hunkRef } from "../../session/hunkChoice";
import { Modal } from "./Modal";
import { commentedLine, lineText, reviewComment, sendBackNote } from "./taskMessages";
import { baseWords } from "./taskWords";

interface Props {
  backend: Backend;
  task: TaskSummary;
  /** Sends a message to the task's agent as the user's (its conversation is the one shown). */
  send(text: string): Promise<void>;
  onClose(): void;
  /** The change was edited (a file or a part dropped): the task's counts are stale. */
  onChanged(): void;
}

const DROP_WORDS = {
  button: "Drop",
  title: "Reverts this part in the task's worktree, back to how it is in the base",
  ask: "Drop this part of the change?",
  confirm: "Drop part",
  keep: "Keep",
};

/** One file of the review: its drop button (asks first) and its diff. */
function ReviewFile(props: {
  file: FileDiff;
  busy: boolean;
  onDropFile(): void;
  onDropHunk(hunk: Hunk): void;
  onComment(line: DiffLine): void;
}) {
  const [asking, setAsking] = useState(false);
  const actions = useMemo<DiffRowActions>(() => ({ undo: DROP_WORDS, comment: props.onComment }), [props.onComment]);
  return (
    <div className="task-review-file" data-testid="review-file" data-path={props.file.path}>
      <div className="task-review-file-bar">
        {asking ? (
          <span className="msg-confirm" role="group" aria-label={`Drop ${props.file.path}?`}>
            <span>Drop every change to {props.file.path}? It goes back to how it is in the base.</span>
            <button
              type="button"
              className="danger small"
              data-testid="confirm-drop-file"
              autoFocus
              onClick={() => {
                setAsking(false);
                props.onDropFile();
              }}
            >
              Drop file
            </button>
            <button type="button" className="ghost small" onClick={() => setAsking(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="ghost small"
            data-testid="drop-file"
            aria-label={`Drop file ${props.file.path}`}
            disabled={props.busy}
            onClick={() => setAsking(true)}
          >
            Drop file
          </button>
        )}
      </div>
      <DiffRowActionsContext.Provider value={actions}>
        <DiffView diff={props.file} onUndoHunk={props.busy ? undefined : props.onDropHunk} />
      </DiffRowActionsContext.Provider>
    </div>
  );
}

/** The comment being written: on which line of which file. */
interface Commenting {
  path: string;
  line: DiffLine;
}

export function ReviewDialog({ backend, task, send, onClose, onChanged }: Props) {
  const [change, setChange] = useState<TaskChange | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [commenting, setCommenting] = useState<Commenting | null>(null);
  const [comment, setComment] = useState("");
  const [note, setNote] = useState("");
  const [said, setSaid] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    backend.taskChange(task.id).then(
      (c) => live && setChange(c),
      (e: unknown) => live && setProblem(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [backend, task.id]);

  const drop = async (path: string, hunk: Hunk | null) => {
    setBusy(true);
    setProblem(null);
    try {
      setChange(await backend.dropTaskChange(task.id, path, hunk ? [hunkRef(hunk)] : null));
      setSaid(hunk ? `Dropped a part of ${path}.` : `Dropped ${path}.`);
      onChanged();
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const tell = async (text: string, done: string) => {
    setProblem(null);
    try {
      await send(text);
      setSaid(done);
      return true;
    } catch (e) {
      setProblem(errorMessage(e));
      return false;
    }
  };

  const files = change?.files ?? [];
  const at = commenting ? commentedLine(commenting.line) : null;
  return (
    <Modal label={`Changes of ${task.name}`} testId="task-review" onClose={onClose} wide initial="[data-close]">
      <header className="net-change-head">
        <div>
          <strong>Changes of {task.name}</strong>
          <div className="muted">
            {task.branch ?? task.path} {baseWords(task.base)}
            {change && `, since ${change.base_commit.slice(0, 7)}`}: {files.length === 1 ? "1 file" : `${files.length} files`}
          </div>
        </div>
        <button type="button" className="ghost" data-close data-testid="review-close" onClick={onClose}>
          Close
        </button>
      </header>
      {problem && (
        <p className="net-change-error" role="alert">
          {problem}
        </p>
      )}
      {said && (
        <p className="muted small" role="status" data-testid="review-said">
          {said}
        </p>
      )}
      {change === null && !problem && (
        <p className="muted" role="status">
          Reading the change…
        </p>
      )}
      {change && files.length === 0 && <p data-testid="review-empty">No changes against the base.</p>}
      <div className="task-review-files">
        {files.map((file) => (
          <div key={file.path}>
            <ReviewFile
              file={file}
              busy={busy}
              onDropFile={() => void drop(file.path, null)}
              onDropHunk={(hunk) => void drop(file.path, hunk)}
              onComment={(line) => {
                setCommenting({ path: file.path, line });
                setComment("");
              }}
            />
            {commenting?.path === file.path && (
              <form
                className="task-comment"
                data-testid="review-comment"
                onSubmit={async (e) => {
                  e.preventDefault();
                  if (!comment.trim()) return;
                  const where = at ? ` line ${at.number}` : "";
                  if (await tell(reviewComment(file.path, commenting.line, comment), `Comment on ${file.path}${where} sent to the agent.`)) {
                    setCommenting(null);
                  }
                }}
              >
                <label className="field">
                  <span>
                    Comment on {at?.removed ? "removed line" : "line"} {at?.number} of <code>{file.path}</code>
                  </span>
                  <code className="task-comment-quote">{lineText(commenting.line)}</code>
                  <textarea
                    autoFocus
                    rows={3}
                    aria-label="Your comment"
                    value={comment}
                    onChange={(e) => setComment(e.target.value)}
                    onKeyDown={(e) => {
                      if (e.key === "Escape") {
                        e.preventDefault();
                        e.stopPropagation();
                        setCommenting(null);
                      }
                    }}
                  />
                </label>
                <div className="row end">
                  <button type="button" className="ghost small" onClick={() => setCommenting(null)}>
                    Cancel
                  </button>
                  <button type="submit" className="primary small" data-testid="send-comment" disabled={!comment.trim()}>
                    Send comment
                  </button>
                </div>
              </form>
            )}
          </div>
        ))}
      </div>
      {change && (
        <form
          className="task-send-back"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!note.trim()) return;
            if (await tell(sendBackNote(note), "Sent back to the agent.")) onClose();
          }}
        >
          <label className="field">
            <span>Send it back to the agent</span>
            <textarea
              rows={3}
              aria-label="Note for the agent"
              placeholder="What should change before you merge it"
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </label>
          <div className="row end">
            <button type="submit" data-testid="send-back" disabled={!note.trim()}>
              Send back with a note
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
