// What the agent's file tools changed in a session, by file: the changes that went through (a
// sub-agent's included), their line counts as their cards show them, which were undone or
// rewound since (as their cards look, changeLook.ts), and the entry to go to for the newest. Commands can change files too; those are not known
// here, and the panel says so.
import type { CallView, Item, Rewind } from "./state";
import { changeLook } from "./changeLook";
import { rewoundIds } from "./rewinds";

export interface FileChanges {
  /** Workspace-relative path. */
  path: string;
  /** The first change that went through created the file. */
  created: boolean;
  /** Changes that went through and were not undone. */
  kept: number;
  /** Changes undone since. */
  undone: number;
  /** Changes a rewind took back since (and not undone before it). */
  rewound: number;
  /** Kept changes of which some hunks were undone since (their counts are what is left). */
  partlyUndone: number;
  /** Lines added and removed by the kept changes, summed as each card counts them. */
  added: number;
  removed: number;
  /** The conversation entry holding the newest change (a sub-agent's card for its calls). */
  itemId: number;
  /** The calls of the kept changes, oldest first. */
  callIds: string[];
}

/** Each changed file, in the order of its first change. */
export function sessionChanges(items: Item[], calls: Record<string, CallView>, rewinds: readonly Rewind[] = []): FileChanges[] {
  const byPath = new Map<string, FileChanges>();
  const taken = rewoundIds(items, rewinds);
  const visit = (list: Item[], entry: number | null) => {
    for (const item of list) {
      if (item.kind !== "tool") continue;
      const call = calls[item.callId];
      if (!call) continue;
      const at = entry ?? item.id;
      const preview = call.preview;
      if (call.state === "succeeded" && preview) {
        let file = byPath.get(preview.path);
        if (!file) {
          file = {
            path: preview.path,
            created: preview.created,
            kept: 0,
            undone: 0,
            rewound: 0,
            partlyUndone: 0,
            added: 0,
            removed: 0,
            itemId: at,
            callIds: [],
          };
          byPath.set(preview.path, file);
        }
        file.itemId = at;
        const disk = changeLook({ ...call, rewound: taken.has(at) }).disk;
        if (disk === "undone") file.undone += 1;
        else if (disk === "rewound") file.rewound += 1;
        else {
          file.kept += 1;
          if (disk === "partly-undone") file.partlyUndone += 1;
          file.callIds.push(call.id);
          file.added += preview.lines_added;
          file.removed += preview.lines_removed;
        }
      }
      visit(call.children, at);
    }
  };
  visit(items, null);
  return [...byPath.values()];
}
