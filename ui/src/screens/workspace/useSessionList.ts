// The workspace's stored sessions, for the sidebar: loaded at once and again whenever a task
// ends (a new session takes its title from its first message).
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
  return { sessions, error, setError, refresh };
}
