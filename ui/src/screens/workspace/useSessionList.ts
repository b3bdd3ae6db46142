// The workspace's stored sessions, for the sidebar: loaded at once and again whenever a task
// ends (a new session takes its title from its first message), and every few seconds while a
// session is running, so each one's badge follows what it does.
import { useCallback, useEffect, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { SessionSummary } from "../../protocol/SessionSummary";

export interface SessionList {
  sessions: SessionSummary[];
  /** Why the list (or an action on it) failed, until dismissed. */
  error: string | null;
  setError: (error: string | null) => void;
  refresh: () => void;
}

/** How often the list is read again while a session runs or waits (ms). */
export const ACTIVITY_POLL_MS = 2000;

export function useSessionList(backend: Backend, workspace: string, running: boolean): SessionList {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    backend.listSessions(workspace).then(
      (list) => {
        setSessions(list);
        setError(null);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  }, [backend, workspace]);
  useEffect(refresh, [refresh]);
  useEffect(() => {
    if (!running) refresh();
  }, [running, refresh]);
  const busy = running || sessions.some((s) => s.activity && (s.activity.running || s.activity.waiting > 0));
  useEffect(() => {
    if (!busy) return;
    const id = setInterval(refresh, ACTIVITY_POLL_MS);
    return () => clearInterval(id);
  }, [busy, refresh]);
  return { sessions, error, setError, refresh };
}
