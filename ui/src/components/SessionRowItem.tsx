// One session in the sidebar: its title (a branch's marked and drawn under the session it came
// from), what it is doing, when it last changed, and rename and delete beside it.
import { useState } from "react";
import type { TaskSummary } from "../protocol/TaskSummary";
import type { SessionActivity } from "../protocol/SessionActivity";
import { TaskRowInfo } from "./TaskRowInfo";
import { ActivityBadge } from "./ActivityBadge";
import type { SessionRow } from "./sessionRows";
import { formatWhen } from "../format";
import { WORDS } from "../glossary";

interface Props {
  row: SessionRow;
  current: boolean;
  activity: SessionActivity | undefined;
  task: TaskSummary | undefined;
  /** The time relative times are counted to (the shared clock, ../useNow.ts). */
  now: number;
  onOpen(): void;
  onRename(title: string): void;
  onDelete(): void;
}

export function SessionRowItem({ row, current, activity, task, now, onOpen, onRename, onDelete }: Props) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [confirming, setConfirming] = useState(false);
  const s = row.session;
  const name = s.title || "session";
  const when = formatWhen(s.updated_at, now);
  const className = [current ? "current" : "", row.branch ? "session-row-branch" : ""].filter(Boolean).join(" ");
  return (
    <li className={className || undefined} style={row.depth > 0 ? { marginLeft: `${Math.min(row.depth, 3) * 14}px` } : undefined}>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim()) onRename(draft.trim());
            setEditing(false);
          }}
        >
          <input
            aria-label="Session name"
            value={draft}
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onBlur={() => setEditing(false)}
            onKeyDown={(e) => e.key === "Escape" && setEditing(false)}
          />
        </form>
      ) : (
        <>
          <button
            className="ghost session-item"
            data-testid="session-item"
            data-branch={row.branch ? "true" : undefined}
            aria-current={current ? "true" : undefined}
            onClick={onOpen}
            title={row.tip}
          >
            <span className="session-row-top">
              {row.branch && (
                <span className="session-branch-mark" aria-hidden="true">
                  ↳
                </span>
              )}
              <span className="session-title">
                {/* A task has a name before its first message gives it a title. */}
                {!s.title && task ? task.name : row.label}
              </span>
              {!task && <ActivityBadge activity={activity} />}
            </span>
            {task && <TaskRowInfo task={task} activity={activity} />}
            {(when || row.branch || s.agent) && (
              <span className="muted session-time">
                {s.agent && (
                  <span className="session-agent" data-testid="session-agent" title="The external agent that does this session's work">
                    {s.agent}
                  </span>
                )}
                {s.agent && (row.branch || when) && " · "}
                {row.branch && <span className="session-branch-word">{WORDS.branch.one}</span>}
                {row.branch && when && " · "}
                {when}
              </span>
            )}
          </button>
          <span className="session-actions">
            <button
              className="icon-button"
              aria-label={`Rename ${name}`}
              onClick={() => {
                setDraft(s.title);
                setEditing(true);
              }}
            >
              ✎
            </button>
            {confirming ? (
              <button
                className="danger small"
                aria-label={`Confirm deleting ${name}`}
                title="Its history is removed; files stay as they are."
                autoFocus
                onBlur={() => setConfirming(false)}
                onClick={() => {
                  setConfirming(false);
                  onDelete();
                }}
              >
                Delete?
              </button>
            ) : (
              <button className="icon-button" aria-label={`Delete ${name}`} onClick={() => setConfirming(true)}>
                ×
              </button>
            )}
          </span>
        </>
      )}
    </li>
  );
}
