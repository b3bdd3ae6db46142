// The workspace's stored sessions, for the sidebar: loaded at once and again whenever a task
// ends, and every few seconds while a session is running, so each one's badge follows what it
// does. A session is named as the engine titles it (from its first message, as it is sent),
// before the store is read again (sessionTitles.ts).
import { useCallback, useEffect, useMemo, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { SessionSummary } from "../../protocol/SessionSummary";
import { named, withTitles } from "./sessionTitles";

export interface SessionList {
  sessions: SessionSummary[];
  /** Why the list (or an action on it) failed, until dismissed. */
  error: string | null;
  setError: (error: string | null) => void;
  refresh: () => void;
  /** Names session `id` `title` in the list, as the engine titled it. */
  retitle: (id: string, title: string) => void;
}

/** How often the list is read again while a session runs or waits (ms). */
export const ACTIVITY_POLL_MS = 2000;

export function useSessionList(backend: Backend, workspace: string, running: boolean): SessionList {
  const [stored, setSessions] = useState<SessionSummary[]>([]);
  const [titles, setTitles] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [error, setError] = useState<string | null>(null);
  const sessions = useMemo(() => withTitles(stored, titles), [stored, titles]);
  const retitle = useCallback((id: string, title: string) => setTitles((t) => named(t, id, title)), []);
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
  return { sessions, error, setError, refresh, retitle };
}
