// The workspace's sessions: new, open, rename, delete, search. Each shows what it is doing: a
// spinner while a task runs, an amber count of the approvals that wait for the person. A branch
// is named as one rather than repeating its source's title. A session that is a task (a place to
// work of its own) shows the task's state, changes and warnings instead (TaskRowInfo.tsx).
import { useMemo, useState, type ReactNode } from "react";
import type { TaskSummary } from "../protocol/TaskSummary";
import { TaskRowInfo } from "./TaskRowInfo";
import type { SessionActivity } from "../protocol/SessionActivity";
import type { SessionSummary } from "../protocol/SessionSummary";
import { formatWhen } from "../format";

/** The mark the engine puts before a branch's title (`conversation/branch.rs`). */
const BRANCH = "↳ ";

/**
 * How each session is named in the list: a branch of a listed session is "↳ Branch N" (its
 * source's title in the tooltip), numbered among the branches of that title, oldest first.
 */
export function sessionLabels(sessions: SessionSummary[]): Map<string, { label: string; tip: string; branch: boolean }> {
  const titles = new Set(sessions.map((s) => s.title));
  const branches = sessions
    .filter((s) => s.title.startsWith(BRANCH) && titles.has(s.title.slice(BRANCH.length)))
    .sort((a, b) => a.created_at - b.created_at);
  const counts = new Map<string, number>();
  const out = new Map<string, { label: string; tip: string; branch: boolean }>();
  for (const s of branches) {
    const n = (counts.get(s.title) ?? 0) + 1;
    counts.set(s.title, n);
    const source = s.title.slice(BRANCH.length);
    out.set(s.id, { label: `${BRANCH}Branch ${n}`, tip: `Branch ${n} of “${source}”`, branch: true });
  }
  for (const s of sessions) {
    if (!out.has(s.id)) out.set(s.id, { label: s.title || "Untitled", tip: s.title || "Untitled", branch: false });
  }
  return out;
}

/** A session's badge: a spinner while it runs, the approvals that wait for the person. */
export function ActivityBadge({ activity }: { activity: SessionActivity | undefined }) {
  if (!activity) return null;
  if (activity.waiting > 0) {
    const tip = activity.waiting === 1 ? "1 approval waits for you" : `${activity.waiting} approvals wait for you`;
    return (
      <span className="session-waiting look-needs-you" data-testid="session-waiting" title={tip} aria-label={tip}>
        {activity.waiting}
      </span>
    );
  }
  if (activity.running) {
    return <span className="spinner" data-testid="session-running" role="img" aria-label="Working" title="Working" />;
  }
  return null;
}

interface Props {
  sessions: SessionSummary[];
  current: string | null;
  /** What the open session is doing, from its own events (fresher than the list's). */
  currentActivity?: SessionActivity;
  onNew(): void;
  onOpen(id: string): void;
  onRename(id: string, title: string): void;
  onDelete(id: string): void;
  /** The workspace's tasks by id: a session with one is a task. */
  tasks?: ReadonlyMap<string, TaskSummary>;
  /** Under the list (cleaning up merged tasks). */
  footer?: ReactNode;
}

export function Sidebar(p: Props) {
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [confirming, setConfirming] = useState<string | null>(null);
  const labels = useMemo(() => sessionLabels(p.sessions), [p.sessions]);
  const shown = p.sessions.filter((s) => (s.title || "Untitled").toLowerCase().includes(query.toLowerCase()));
  return (
    <nav className="sidebar" aria-label="Sessions" data-testid="sidebar">
      {/* The test id is the old "New session"'s: the end-to-end tests click it. */}
      <button
        className="primary new-session"
        data-testid="new-session"
        aria-label="New task"
        title="A new conversation with the agent; choose where it works"
        onClick={p.onNew}
      >
        + New task
      </button>
      <input
        className="session-search"
        type="search"
        aria-label="Search sessions"
        placeholder="Search sessions"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul className="session-list">
        {shown.length === 0 && <li className="muted empty">{query ? "No session matches." : "No sessions yet."}</li>}
        {shown.map((s) => {
          const task = p.tasks?.get(s.id);
          const activity = s.id === p.current ? (p.currentActivity ?? s.activity) : s.activity;
          return (
            <li key={s.id} className={s.id === p.current ? "current" : ""}>
              {editing === s.id ? (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (draft.trim()) p.onRename(s.id, draft.trim());
                    setEditing(null);
                  }}
                >
                  <input
                    aria-label="Session name"
                    value={draft}
                    autoFocus
                    onChange={(e) => setDraft(e.target.value)}
                    onBlur={() => setEditing(null)}
                    onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
                  />
                </form>
              ) : (
                <>
                  <button
                    className="ghost session-item"
                    data-testid="session-item"
                    aria-current={s.id === p.current ? "true" : undefined}
                    onClick={() => p.onOpen(s.id)}
                    title={labels.get(s.id)?.tip}
                  >
                    <span className="session-row-top">
                      <span className={labels.get(s.id)?.branch ? "session-title session-branch" : "session-title"}>
                        {/* A task has a name before its first message gives it a title. */}
                        {!s.title && task ? task.name : (labels.get(s.id)?.label ?? (s.title || "Untitled"))}
                      </span>
                      {!task && <ActivityBadge activity={activity} />}
                    </span>
                    {task && <TaskRowInfo task={task} activity={activity} />}
                    <span className="muted session-time">{formatWhen(s.updated_at)}</span>
                  </button>
                  <span className="session-actions">
                    <button
                      className="icon-button"
                      aria-label={`Rename ${s.title || "session"}`}
                      onClick={() => {
                        setDraft(s.title);
                        setEditing(s.id);
                      }}
                    >
                      ✎
                    </button>
                    {confirming === s.id ? (
                      <button
                        className="danger small"
                        aria-label={`Confirm deleting ${s.title || "session"}`}
                        title="Its history is removed; files stay as they are."
                        autoFocus
                        onBlur={() => setConfirming(null)}
                        onClick={() => {
                          setConfirming(null);
                          p.onDelete(s.id);
                        }}
                      >
                        Delete?
                      </button>
                    ) : (
                      <button
                        className="icon-button"
                        aria-label={`Delete ${s.title || "session"}`}
                        onClick={() => setConfirming(s.id)}
                      >
                        ×
                      </button>
                    )}
                  </span>
                </>
              )}
            </li>
          );
        })}
      </ul>
      {p.footer}
    </nav>
  );
}
