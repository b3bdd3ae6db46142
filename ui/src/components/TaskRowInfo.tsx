// What the sidebar says of a session that is a task, under its title: its state as a pill, its
// lines changed, where it works and what it started from, and warnings: files another task
// changes too (a likely conflict said so), a worktree deleted by hand.
import type { SessionActivity } from "../protocol/SessionActivity";
import type { TaskSummary } from "../protocol/TaskSummary";
import { lookClass } from "./stateLook";
import { baseWords, countWords, liveState, overlapWords, taskStateLook } from "../screens/tasks/taskWords";
import type { TaskState } from "../protocol/TaskState";

/** A task's state as a small pill in its look's colours. */
export function TaskStatePill({ state }: { state: TaskState }) {
  const look = taskStateLook(state);
  return (
    <span className={`task-pill state-pill ${lookClass(look.look)}`} data-testid="task-state" data-state={state} title={look.tip}>
      {look.label}
    </span>
  );
}

export function TaskRowInfo({ task, activity }: { task: TaskSummary; activity?: SessionActivity }) {
  const counts = countWords(task);
  const overlaps = overlapWords(task.overlaps);
  return (
    <span className="task-row-info" data-testid="task-row-info">
      <span className="task-row-line">
        <TaskStatePill state={liveState(task.state, activity)} />
        {counts && (
          <span className="diff-counts task-counts" aria-label={`${task.added} lines added, ${task.removed} removed`}>
            <span className="diff-count-added">+{task.added}</span> <span className="diff-count-removed">−{task.removed}</span>
          </span>
        )}
      </span>
      <span className="task-row-place muted" title={task.path}>
        {task.place === "worktree" ? (task.branch ?? task.name) : "in this folder"} {baseWords(task.base)}
      </span>
      {task.missing && (
        <span className="task-warn" data-testid="task-missing">
          <span aria-hidden="true">⚠ </span>worktree deleted
        </span>
      )}
      {overlaps.map((o) => (
        <span key={o.taskId} className={o.conflict ? "task-warn task-conflict" : "task-warn"} data-testid="task-overlap">
          <span aria-hidden="true">⚠ </span>
          {o.text}
        </span>
      ))}
    </span>
  );
}
