// The workspace's sessions: new, open, rename, delete, search. Each shows what it is doing: a
// spinner while a task runs, an amber count of the approvals that wait for the person. A branch
// is drawn under the session it came from (sessionRows.ts). A session that is a task (a place
// to work of its own) shows the task's state, changes and warnings instead (TaskRowInfo.tsx).
// It folds to a rail (useSidebarCollapse.ts) that keeps "new task" and what waits for the person.
import { useMemo, useState, type ReactNode } from "react";
import type { TaskSummary } from "../protocol/TaskSummary";
import type { SessionActivity } from "../protocol/SessionActivity";
import type { SessionSummary } from "../protocol/SessionSummary";
import { matching, sessionRows } from "./sessionRows";
import { SessionRowItem } from "./SessionRowItem";
import { useNow } from "../useNow";
import { LABELS } from "../glossary";

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
  /** Folded to a rail; with `onToggle`, a button folds and unfolds it. */
  collapsed?: boolean;
  onToggle?(): void;
}

/** The button that folds the sidebar or unfolds it, the same in both. */
function ToggleButton({ collapsed, onToggle, waiting }: { collapsed: boolean; onToggle(): void; waiting: number }) {
  const label = collapsed ? "Show sessions" : "Hide sessions";
  return (
    <button
      type="button"
      className="icon-button sidebar-toggle"
      data-testid="sidebar-toggle"
      aria-expanded={!collapsed}
      aria-controls={collapsed ? undefined : "session-list"}
      aria-label={waiting > 0 && collapsed ? `${label} (${waiting} waiting for you)` : label}
      title={label}
      onClick={onToggle}
    >
      <span aria-hidden="true">{collapsed ? "»" : "«"}</span>
      {collapsed && waiting > 0 && (
        <span className="sidebar-toggle-waiting look-needs-you" aria-hidden="true">
          {waiting}
        </span>
      )}
    </button>
  );
}

export function Sidebar(p: Props) {
  const [query, setQuery] = useState("");
  const now = useNow();
  const rows = useMemo(() => sessionRows(p.sessions), [p.sessions]);
  const shown = matching(rows, query);
  const activityOf = (s: SessionSummary) => (s.id === p.current ? (p.currentActivity ?? s.activity) : s.activity);
  const waiting = p.sessions.reduce((n, s) => n + (activityOf(s)?.waiting ?? 0), 0);
  const collapsed = Boolean(p.collapsed && p.onToggle);
  if (collapsed && p.onToggle) {
    return (
      <nav className="sidebar sidebar-collapsed" aria-label="Sessions" data-testid="sidebar">
        <ToggleButton collapsed onToggle={p.onToggle} waiting={waiting} />
        <button
          type="button"
          className="icon-button new-session-rail"
          data-testid="new-session"
          aria-label={LABELS.newTask}
          title="A new conversation with the agent; choose where it works"
          onClick={p.onNew}
        >
          +
        </button>
      </nav>
    );
  }
  return (
    <nav className="sidebar" aria-label="Sessions" data-testid="sidebar">
      <div className="sidebar-top">
        {/* The test id is the old "New session"'s: the end-to-end tests click it. */}
        <button
          className="primary new-session"
          data-testid="new-session"
          aria-label={LABELS.newTask}
          title="A new conversation with the agent; choose where it works"
          onClick={p.onNew}
        >
          + {LABELS.newTask}
        </button>
        {p.onToggle && <ToggleButton collapsed={false} onToggle={p.onToggle} waiting={waiting} />}
      </div>
      <input
        className="session-search"
        type="search"
        aria-label="Search sessions"
        placeholder="Search sessions"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul className="session-list" id="session-list">
        {shown.length === 0 && <li className="muted empty">{query ? "No session matches." : "No sessions yet."}</li>}
        {shown.map((row) => (
          <SessionRowItem
            key={row.session.id}
            row={row}
            current={row.session.id === p.current}
            activity={activityOf(row.session)}
            task={p.tasks?.get(row.session.id)}
            now={now}
            onOpen={() => p.onOpen(row.session.id)}
            onRename={(title) => p.onRename(row.session.id, title)}
            onDelete={() => p.onDelete(row.session.id)}
          />
        ))}
      </ul>
      {p.footer}
    </nav>
  );
}
