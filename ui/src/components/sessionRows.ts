// How the sidebar lists the sessions: each titled as itself, a branch (a session made from an
// earlier message of another) right under the session it came from, indented and marked, so
// it reads as a session of its own rather than a grey "Branch 1".
import type { SessionSummary } from "../protocol/SessionSummary";
import { branchOf, LABELS } from "../glossary";

/** The mark the engine puts before a branch's title (`conversation/branch.rs`). */
export const BRANCH_MARK = "↳ ";

export interface SessionRow {
  session: SessionSummary;
  /** Its title without the engine's branch marks ("Untitled" before it has one). */
  label: string;
  /** The row's tooltip: its title, or what it was branched from. */
  tip: string;
  /** Made from another session's message. */
  branch: boolean;
  /** How far under its origin it is drawn: 0 for a session, 1 for a branch of a listed one… */
  depth: number;
}

/** A title without the engine's branch marks at its front. */
function bare(title: string): string {
  let t = title;
  while (t.startsWith(BRANCH_MARK)) t = t.slice(BRANCH_MARK.length);
  return t;
}

/**
 * The sessions in the order the sidebar draws them: as listed (newest first), each branch
 * right after the session it came from (the listed session with its source's title made before
 * it), newest branch first. A branch whose source is not listed stays in its place.
 */
export function sessionRows(sessions: SessionSummary[]): SessionRow[] {
  const origin = new Map<string, string>();
  for (const s of sessions) {
    if (!s.title.startsWith(BRANCH_MARK)) continue;
    const source = s.title.slice(BRANCH_MARK.length);
    const from = sessions
      .filter((o) => o.id !== s.id && o.title === source && o.created_at <= s.created_at)
      .sort((a, b) => b.created_at - a.created_at)[0];
    if (from) origin.set(s.id, from.id);
  }
  const children = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    const parent = origin.get(s.id);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const rows: SessionRow[] = [];
  const seen = new Set<string>();
  const add = (s: SessionSummary, depth: number) => {
    if (seen.has(s.id)) return;
    seen.add(s.id);
    const branch = s.title.startsWith(BRANCH_MARK);
    const label = bare(s.title) || LABELS.untitled;
    const tip = branch ? branchOf(bare(s.title.slice(BRANCH_MARK.length)) || LABELS.untitled) : label;
    rows.push({ session: s, label, tip, branch, depth });
    for (const child of children.get(s.id) ?? []) add(child, depth + 1);
  };
  // Every branch hangs off a root: its source's title is shorter than its own.
  for (const s of sessions) if (!origin.has(s.id)) add(s, 0);
  return rows;
}

/** The rows whose title has `query` in it, in the same order. */
export function matching(rows: SessionRow[], query: string): SessionRow[] {
  const q = query.trim().toLowerCase();
  return q ? rows.filter((r) => r.label.toLowerCase().includes(q)) : rows;
}
