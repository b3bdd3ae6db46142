// The workspace's sessions: new, open, rename, delete, search.
import { useState } from "react";
import type { SessionSummary } from "../protocol/SessionSummary";
import { formatWhen } from "../format";

interface Props {
  sessions: SessionSummary[];
  current: string | null;
  onNew(): void;
  onOpen(id: string): void;
  onRename(id: string, title: string): void;
  onDelete(id: string): void;
}

export function Sidebar(p: Props) {
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [confirming, setConfirming] = useState<string | null>(null);
  const shown = p.sessions.filter((s) => (s.title || "Untitled").toLowerCase().includes(query.toLowerCase()));
  return (
    <nav className="sidebar" aria-label="Sessions" data-testid="sidebar">
      <button className="primary new-session" data-testid="new-session" onClick={p.onNew}>
        + New session
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
        {shown.map((s) => (
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
                  title={s.title}
                >
                  <span className="session-title">{s.title || "Untitled"}</span>
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
        ))}
      </ul>
    </nav>
  );
}
