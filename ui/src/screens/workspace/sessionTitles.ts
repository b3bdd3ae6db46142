// The titles the engine gave sessions while they run (`session_titled`), over the stored list the
// sidebar reads: a session is named from its first message at once, not when the store is read
// again after its task. The store's own title, once it has one, wins (a rename is stored there).
import type { SessionSummary } from "../../protocol/SessionSummary";

/** `sessions` with each untitled one named by `titles` (by session id), when it names it. */
export function withTitles(sessions: SessionSummary[], titles: ReadonlyMap<string, string>): SessionSummary[] {
  if (titles.size === 0) return sessions;
  let changed = false;
  const out = sessions.map((s) => {
    const title = titles.get(s.id);
    if (s.title || !title) return s;
    changed = true;
    return { ...s, title };
  });
  return changed ? out : sessions;
}

/** `titles` with session `id` named `title` (the same map when it already was). */
export function named(titles: ReadonlyMap<string, string>, id: string, title: string): ReadonlyMap<string, string> {
  if (titles.get(id) === title) return titles;
  return new Map(titles).set(id, title);
}
