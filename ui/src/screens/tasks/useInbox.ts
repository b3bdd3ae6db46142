// What needs the user across every open workspace's tasks: read at once, when any task changes,
// when `readAgain` changes (the session list was read again), and every few seconds while the
// inbox is open. Ordered most urgent first (inboxModel.ts).
import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { InboxItem } from "../../protocol/InboxItem";
import { orderInbox } from "./inboxModel";
import { useTasksChanged } from "./useTasksChanged";

/** How often the open inbox is read again (ms). */
export const INBOX_POLL_MS = 3000;

export function useInbox(backend: Backend, open: boolean, readAgain: unknown) {
  const [items, setItems] = useState<InboxItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  const refresh = useCallback(() => {
    const mine = ++asked.current;
    backend.taskInbox().then(
      (list) => {
        if (mine !== asked.current) return;
        setItems(orderInbox(list));
        setError(null);
      },
      (e: unknown) => mine === asked.current && setError(errorMessage(e)),
    );
  }, [backend]);
  useEffect(refresh, [refresh, readAgain]);
  useTasksChanged(backend, refresh);
  useEffect(() => {
    if (!open) return;
    refresh();
    const id = setInterval(refresh, INBOX_POLL_MS);
    return () => clearInterval(id);
  }, [open, refresh]);
  return { items, error, refresh };
}
