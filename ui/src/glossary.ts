// The one word for each thing the person meets, and the short labels made of them, so the
// conversation, the sidebar, the dialogs and the status bar name a thing the same way:
// - a session: one conversation with the agent, listed in the sidebar;
// - a change: what one tool use did to one file (it can be undone);
// - a part: one hunk of a change, chosen or undone on its own;
// - a command: a shell command the agent runs;
// - a rewind: putting the workspace's files back to before a message of the person;
// - a branch: a new session with the conversation before a message, the original unchanged.
// The engine's "call" is a tool use here: the word stays inside the code and the tool cards.

/** A noun in its two forms. */
export interface Word {
  one: string;
  many: string;
}

export const WORDS = {
  session: { one: "session", many: "sessions" },
  change: { one: "change", many: "changes" },
  fileChange: { one: "file change", many: "file changes" },
  /** A hunk, to the person (the tool cards' diffs choose and undo parts). */
  part: { one: "part", many: "parts" },
  command: { one: "command", many: "commands" },
  rewind: { one: "rewind", many: "rewinds" },
  branch: { one: "branch", many: "branches" },
  file: { one: "file", many: "files" },
  toolUse: { one: "tool use", many: "tool uses" },
} as const satisfies Record<string, Word>;

/** "1 change", "3 changes": a count with its noun. */
export function count(n: number, word: Word): string {
  return `${n} ${n === 1 ? word.one : word.many}`;
}

/** The labels of buttons and headings: a few words each, no sentences. */
export const LABELS = {
  /** A message's action that makes a branch at it (the confirmation's button says `branch`). */
  branchFromHere: "Branch from here",
  branch: "Branch",
  rewindToHere: "Rewind to here",
  undoRewind: "Undo rewind",
  cancel: "Cancel",
  untitled: "Untitled",
  newTask: "New task",
} as const;

/** A branch's tooltip and accessible name: what it was branched from. */
export function branchOf(source: string): string {
  return `Branch of “${source}”`;
}
