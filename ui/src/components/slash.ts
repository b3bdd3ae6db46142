// The composer's `/` menu: what is being typed (`/rev` at the start of the message), the
// entries it lists (built-ins first, then the workspace's and your commands, then skills, each
// kind by how well its name matches), and the built-ins the window acts on itself. Commands and
// skills are sent as the message's text: the engine expands `/name args`.
import type { SlashEntry } from "../protocol/SlashEntry";
import type { SlashKind } from "../protocol/SlashKind";

/** The built-ins this window runs itself instead of sending them. */
export const WINDOW_BUILT_INS: readonly SlashEntry[] = [
  { name: "compact", kind: "built_in", description: "Summarise the conversation so far to free the context window", argument_hint: null, source: null },
  { name: "clear", kind: "built_in", description: "Start a new session (this one stays in the list)", argument_hint: null, source: null },
  { name: "model", kind: "built_in", description: "Choose the model, in Settings", argument_hint: null, source: null },
  { name: "mode", kind: "built_in", description: "Choose the approval mode", argument_hint: null, source: null },
  { name: "retry", kind: "built_in", description: "Run the model again after a task ended with an error", argument_hint: null, source: null },
];

const KIND_ORDER: Record<SlashKind, number> = { agent: 0, built_in: 1, command: 2, skill: 3 };

/** The heading of each kind in the menu. */
export const KIND_HEADINGS: Record<SlashKind, string> = {
  agent: "The agent's own",
  built_in: "Built-in",
  command: "Commands",
  skill: "Skills",
};

/**
 * The `/name` being typed, when the message starts with `/` and the caret is still in its first
 * word: the text typed after `/` so far.
 */
export function slashAt(text: string, caret: number): { query: string } | null {
  const m = /^\/(\S*)$/.exec(text.slice(0, caret));
  return m ? { query: m[1] ?? "" } : null;
}

/** The catalog's entries with the window's built-ins (the catalog's word wins for a name it has). */
export function withWindowBuiltIns(entries: readonly SlashEntry[]): SlashEntry[] {
  const named = new Set(entries.filter((e) => e.kind === "built_in").map((e) => e.name));
  return [...WINDOW_BUILT_INS.filter((e) => !named.has(e.name)), ...entries];
}

/**
 * The entries with the external agent's own commands first: a name the agent has is the agent's
 * (its `/compact` is sent to it, not run by the window).
 */
export function withAgentCommands(entries: readonly SlashEntry[], agent: readonly SlashEntry[]): SlashEntry[] {
  if (agent.length === 0) return [...entries];
  const named = new Set(agent.map((e) => e.name));
  return [...agent, ...entries.filter((e) => !named.has(e.name))];
}

/**
 * The entries whose name holds `query` (any case): built-ins, commands, skills, and in each kind
 * the names that start with it before those that only hold it, then by name.
 */
export function slashOptions(entries: readonly SlashEntry[], query: string): SlashEntry[] {
  const q = query.toLowerCase();
  const rank = (e: SlashEntry) => (e.name.toLowerCase().startsWith(q) ? 0 : 1);
  return entries
    .filter((e) => e.name.toLowerCase().includes(q))
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** The message with its first word replaced by `/name ` (what followed it is kept). */
export function withSlashName(text: string, name: string): string {
  const rest = text.replace(/^\/\S*\s*/, "");
  return `/${name} ${rest}`;
}

/**
 * The built-in of the window that `text` (a whole message) runs, if it is one: `/compact`; not
 * one of the names in `agentOwn` (the external agent's own commands, sent to it).
 */
export function windowBuiltIn(text: string, agentOwn: readonly SlashEntry[] = []): string | null {
  const m = /^\/(\S+)$/.exec(text.trim());
  const name = m?.[1];
  if (!name || agentOwn.some((e) => e.name === name)) return null;
  return WINDOW_BUILT_INS.some((e) => e.name === name) ? name : null;
}

/** The entry whose arguments are still to be written: the message is `/name ` and no more. */
export function awaitingArguments(text: string, entries: readonly SlashEntry[]): SlashEntry | null {
  const m = /^\/(\S+) $/.exec(text);
  return (m && entries.find((e) => e.name === m[1] && e.argument_hint)) || null;
}
