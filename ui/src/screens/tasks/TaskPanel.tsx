// The shown session's task, above its conversation: its state, where it works (worktree,
// branch, base), the disk it takes, its port, what it overlaps with, and what can be done with
// it: review its changes, merge it (and follow or cancel the merge, or ask the agent to fix what
// stopped it), discard or restore it, hand it back to the folder. Each action is one command;
// the engine's next "tasks-changed" brings the new state.
import { useEffect, useRef, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { SessionActivity } from "../../protocol/SessionActivity";
import type { TaskSummary } from "../../protocol/TaskSummary";
import { TaskStatePill } from "../../components/TaskRowInfo";
import { PathText } from "../../components/PathText";
import { formatBytes } from "../../format";
import { ConfirmDialog } from "./ConfirmDialog";
import { MergeDialog } from "./MergeDialog";
import { MergeProgressView } from "./MergeProgressView";
import { ReviewDialog } from "./ReviewDialog";
import { RunButton } from "./RunButton";
import { fixMergeRequest } from "./taskMessages";
import { baseWords, countWords, liveState, mergeActive, mergeStopped, overlapWords, restorableWords } from "./taskWords";

interface Props {
  backend: Backend;
  task: TaskSummary;
  /** The session's own activity (fresher than the task list's). */
  activity?: SessionActivity;
  /** Sends a message to the task's agent as the user's. */
  send(text: string): Promise<void>;
  /** Shows the task as an action returned it. */
  onTask(task: TaskSummary): void;
  /** The task list should be read again. */
  refresh(): void;
  /** A dialog opened or closed (it then keeps the keys). */
  onModal?(open: boolean): void;
}

type Dialog = "review" | "merge" | "discard" | "hand-back" | null;

/** The task's change against its base is not empty. */
function hasChanges(task: TaskSummary): boolean {
  return task.files > 0 || task.added > 0 || task.removed > 0;
}

/** A worktree task whose changes are not merged: discarding it keeps a copy for 14 days. */
function hasUnmerged(task: TaskSummary): boolean {
  return task.state !== "merged" && hasChanges(task);
}

export function TaskPanel({ backend, task, activity, send, onTask, refresh, onModal }: Props) {
  const [dialog, setDialogState] = useState<Dialog>(null);
  const [details, setDetails] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const setDialog = (d: Dialog) => {
    setDialogState(d);
    onModal?.(d !== null);
  };
  // A dialog open as the panel goes (another session shown) no longer keeps the keys.
  const modal = useRef(onModal);
  modal.current = onModal;
  useEffect(() => () => modal.current?.(false), []);
  const act = async (what: () => Promise<TaskSummary | void>, done?: string) => {
    setProblem(null);
    setSaid(null);
    try {
      const changed = await what();
      if (changed) onTask(changed);
      if (done) setSaid(done);
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      refresh();
    }
  };

  const state = liveState(task.state, activity);
  const worktree = task.place === "worktree";
  const gone = task.state === "discarded";
  const merging = mergeActive(task.merge);
  const agentBusy = state === "running" || state === "waiting" || state === "queued";
  const canReview = worktree && !gone && !task.missing;
  // Nothing to merge before the agent changed something (the queue would refuse it).
  const canMerge = canReview && !merging && task.state !== "merged" && !agentBusy && hasChanges(task);
  const canHandBack = canReview && !merging && task.state !== "merged" && hasUnmerged(task);
  const counts = countWords(task);
  const fix = task.merge ? fixMergeRequest(task.merge) : null;
  // A merge that stopped before the agent's latest work (the engine then no longer calls the task
  // failed) is history: said in a line, with nothing to fix from it.
  const pastMerge = mergeStopped(task.merge) && state !== "failed";

  return (
    <section className="task-panel" aria-label={`Task ${task.name}`} data-testid="task-panel">
      <div className="task-panel-head">
        <TaskStatePill state={state} />
        <strong className="task-panel-name">{task.name}</strong>
        <span className="muted task-panel-place" title={task.path}>
          {worktree ? (task.branch ?? "its own worktree") : "in this folder"} {baseWords(task.base)}
        </span>
        {counts && (
          <span className="diff-counts" title={`${task.files === 1 ? "1 file" : `${task.files} files`} changed`}>
            <span className="diff-count-added">+{task.added}</span> <span className="diff-count-removed">−{task.removed}</span>
          </span>
        )}
        <span className="spacer" />
        <span className="task-actions">
          {canReview && (
            <button type="button" className="small" data-testid="review-changes" onClick={() => setDialog("review")}>
              Review changes
            </button>
          )}
          {canMerge && (
            <button
              type="button"
              // After a stopped merge, fixing it comes first ("Ask the agent to fix it").
              className={state === "failed" ? "small" : "primary small"}
              data-testid="merge-task"
              onClick={() => setDialog("merge")}
            >
              Merge…
            </button>
          )}
          {canHandBack && (
            <button
              type="button"
              className="ghost small"
              data-testid="hand-back"
              title="Apply its changes to the files in your folder"
              onClick={() => setDialog("hand-back")}
            >
              Hand back…
            </button>
          )}
          {gone ? (
            <button type="button" className="small" data-testid="restore-task" onClick={() => void act(() => backend.restoreTask(task.id), "Restored.")}>
              Restore
            </button>
          ) : (
            !merging && (
              <button
                type="button"
                className="ghost small danger"
                data-testid="discard-task"
                onClick={() => (hasUnmerged(task) ? setDialog("discard") : void act(() => backend.discardTask(task.id), "Discarded."))}
              >
                Discard…
              </button>
            )
          )}
          <button
            type="button"
            className="ghost small"
            aria-expanded={details}
            aria-controls={`task-details-${task.id}`}
            onClick={() => setDetails((d) => !d)}
          >
            Details
          </button>
        </span>
      </div>
      {details && (
        <dl className="task-facts" id={`task-details-${task.id}`} data-testid="task-details">
          <dt>Works in</dt>
          <dd>
            <PathText path={task.path} />
          </dd>
          {task.branch && (
            <>
              <dt>Branch</dt>
              <dd>
                <code>{task.branch}</code>
              </dd>
            </>
          )}
          <dt>Started from</dt>
          <dd>
            <code>{task.base}</code>
          </dd>
          {task.disk_bytes !== undefined && (
            <>
              <dt>Disk used</dt>
              <dd data-testid="task-disk">{formatBytes(task.disk_bytes)}</dd>
            </>
          )}
          {task.port !== undefined && (
            <>
              <dt>Port</dt>
              <dd data-testid="task-port">
                <code>{task.port}</code> <span className="muted small">(FOREMAN_PORT)</span>
              </dd>
            </>
          )}
          {task.run_command && (
            <>
              <dt>Run</dt>
              <dd>
                <code>{task.run_command}</code>
              </dd>
            </>
          )}
        </dl>
      )}
      {state === "queued" && (
        <p className="task-note" role="status" data-testid="task-queued">
          Queued: it starts by itself as soon as it can.
        </p>
      )}
      {task.note && <p className="task-note">{task.note}</p>}
      {task.missing && (
        <p className="task-warn" data-testid="task-missing">
          <span aria-hidden="true">⚠ </span>Its worktree was deleted: it cannot run until it is restored.
        </p>
      )}
      {overlapWords(task.overlaps, 6).map((o) => (
        <p key={o.taskId} className={o.conflict ? "task-warn task-conflict" : "task-warn"} data-testid="task-overlap">
          <span aria-hidden="true">⚠ </span>
          {o.text.charAt(0).toUpperCase() + o.text.slice(1)}
        </p>
      ))}
      {gone && <p className="muted small">{restorableWords(task.restorable_until)}</p>}
      {!gone && <RunButton backend={backend} task={task} />}
      {task.merge && (
        <MergeProgressView
          merge={task.merge}
          onCancel={() => void act(() => backend.cancelMerge(task.id))}
          onAskFix={fix && !agentBusy ? () => void act(() => send(fix)) : undefined}
          past={pastMerge}
        />
      )}
      {said && (
        <p className="muted small" role="status" data-testid="task-said">
          {said}
        </p>
      )}
      {problem && (
        <p className="error-text" role="alert" data-testid="task-problem">
          {problem}
        </p>
      )}
      {dialog === "review" && (
        <ReviewDialog backend={backend} task={task} send={send} onClose={() => setDialog(null)} onChanged={refresh} />
      )}
      {dialog === "merge" && (
        <MergeDialog
          backend={backend}
          task={task}
          onClose={() => setDialog(null)}
          onQueued={() => {
            setDialog(null);
            refresh();
          }}
        />
      )}
      {dialog === "discard" && (
        <ConfirmDialog
          title={`Discard ${task.name}?`}
          confirm="Discard"
          testId="discard-dialog"
          danger
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            void act(() => backend.discardTask(task.id), "Discarded.");
          }}
        >
          <p>
            Its worktree is removed and its agent stops. Its changes are not merged: a copy is kept, so you can restore
            it for 14 days.
          </p>
        </ConfirmDialog>
      )}
      {dialog === "hand-back" && (
        <ConfirmDialog
          title={`Hand ${task.name} back to the folder?`}
          confirm="Hand back"
          testId="hand-back-dialog"
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            void act(() => backend.handBackTask(task.id), "Its changes are in your folder now.");
          }}
        >
          <p>
            Its changes are applied to the files in <code>{task.workspace_path}</code>, uncommitted, for you to finish
            there. Your checkout must have no uncommitted changes of its own.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
