// Find in the conversation (Ctrl/Cmd+F): the entries that hold the text, one shown at a time,
// starting with the newest; and a jump to one entry (from the changed files), outlined for a
// moment. Both bring their entry into view through a `FindView`.
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { FindView } from "../../components/Conversation";
import { shortcutKey } from "../../platform";
import { entriesHolding } from "../../session/find";
import type { CallView, Item } from "../../session/state";

export function useFind(items: Item[], calls: Record<string, CallView>, current: string | null, dialogOpen: RefObject<boolean>) {
  const [find, setFind] = useState<FindView | null>(null);
  const input = useRef<HTMLInputElement>(null);
  /** Where the focus was when the bar opened, to go back to when it closes. */
  const focusBefore = useRef<HTMLElement | null>(null);
  /** Only ever goes up, so each request to bring an entry into view is a new one. */
  const reveals = useRef(0);
  const found = useMemo(() => (find ? entriesHolding(items, calls, find.query) : []), [find, items, calls]);
  const position = find?.currentId == null ? 0 : found.indexOf(find.currentId) + 1;
  const latest = useRef({ items, calls, found });
  latest.current = { items, calls, found };
  const query = useCallback((text: string) => {
    const ids = entriesHolding(latest.current.items, latest.current.calls, text);
    const reveal = ++reveals.current;
    setFind({ query: text, currentId: ids.at(-1) ?? null, reveal });
  }, []);
  const step = useCallback((by: 1 | -1) => {
    const ids = latest.current.found;
    const reveal = ++reveals.current;
    setFind((f) => {
      if (!f || ids.length === 0) return f;
      const at = f.currentId === null ? -1 : ids.indexOf(f.currentId);
      const next = at < 0 ? (by > 0 ? 0 : ids.length - 1) : (at + by + ids.length) % ids.length;
      return { ...f, currentId: ids[next]!, reveal };
    });
  }, []);
  const close = useCallback(() => {
    setFind(null);
    const before = focusBefore.current;
    focusBefore.current = null;
    if (before?.isConnected) before.focus();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.key.toLowerCase() === "f" || e.code === "KeyF") || !shortcutKey(e) || dialogOpen.current) return;
      e.preventDefault();
      if (!input.current) focusBefore.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setFind((f) => f ?? { query: "", currentId: null, reveal: reveals.current });
      requestAnimationFrame(() => {
        input.current?.focus();
        input.current?.select();
      });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [dialogOpen]);
  // Another conversation: nothing found in it yet.
  useEffect(() => setFind((f) => (f ? { query: f.query, currentId: null, reveal: f.reveal } : f)), [current]);

  const [jump, setJump] = useState<FindView | null>(null);
  const goTo = useCallback((itemId: number) => {
    setJump({ query: "", currentId: itemId, reveal: ++reveals.current });
  }, []);
  useEffect(() => {
    if (!jump) return;
    const id = setTimeout(() => setJump(null), 1500);
    return () => clearTimeout(id);
  }, [jump]);

  return { find, shown: find ?? jump ?? undefined, input, found, position, query, step, close, goTo };
}
