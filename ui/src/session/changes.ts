// What the session changed in the workspace, by file: the engine's one count (every file a file
// tool, a command or an MCP tool of the session touched that differs now from the workspace at
// the session's start, `session_changes`), with, for each file, the conversation entry of its
// newest change and where the file tools' changes to it stand (undone, partly undone, rewound,
// as their cards look: changeLook.ts), for the changes list and the status bar.
import type { ChangeKind } from "../protocol/ChangeKind";
import type { SessionFileChange } from "../protocol/SessionFileChange";
import { changeLook } from "./changeLook";
import { rewoundIds } from "./rewinds";
import type { CallView, Item, Rewind } from "./state";

export interface FileChanges {
  /** Workspace-relative path. */
  path: string;
  /** How the file differs from the session's start: added, modified or deleted. */
  kind: ChangeKind;
  /** Lines added and removed since the session's start (0 and 0 when it is not text). */
  added: number;
  removed: number;
  text: boolean;
  /** File-tool changes to it that went through and are kept. */
  kept: number;
  /** File-tool changes to it undone since. */
  undone: number;
  /** File-tool changes to it a rewind took back since. */
  rewound: number;
  /** Kept file-tool changes of which some parts were undone since. */
  partlyUndone: number;
  /** Commands and other tools that changed it. */
  byCommands: number;
  /** The conversation entry holding the newest change (a sub-agent's card for its calls). */
  itemId: number | null;
  /** The kept file-tool changes, oldest first (what its net diff is asked from). */
  callIds: string[];
}

interface Touch {
  kept: number;
  undone: number;
  rewound: number;
  partlyUndone: number;
  byCommands: number;
  itemId: number;
  callIds: string[];
}

/** What the cards say touched each path, in conversation order. */
function touches(items: Item[], calls: Record<string, CallView>, rewinds: readonly Rewind[]): Map<string, Touch> {
  const byPath = new Map<string, Touch>();
  const taken = rewoundIds(items, rewinds);
  const touch = (path: string, at: number) => {
    let t = byPath.get(path);
    if (!t) {
      t = { kept: 0, undone: 0, rewound: 0, partlyUndone: 0, byCommands: 0, itemId: at, callIds: [] };
      byPath.set(path, t);
    }
    t.itemId = at;
    return t;
  };
  const visit = (list: Item[], entry: number | null) => {
    for (const item of list) {
      if (item.kind !== "tool") continue;
      const call = calls[item.callId];
      if (!call) continue;
      const at = entry ?? item.id;
      if (call.state === "succeeded" && call.preview) {
        const t = touch(call.preview.path, at);
        const disk = changeLook({ ...call, rewound: taken.has(at) }).disk;
        if (disk === "undone") t.undone += 1;
        else if (disk === "rewound") t.rewound += 1;
        else {
          t.kept += 1;
          if (disk === "partly-undone") t.partlyUndone += 1;
          t.callIds.push(call.id);
        }
      }
      for (const change of call.changes ?? []) touch(change.path, at).byCommands += 1;
      visit(call.children, at);
    }
  };
  visit(items, null);
  return byPath;
}

/** Each file the session changed, as the engine counted it (`null`: not counted yet). */
export function sessionChanges(
  counted: SessionFileChange[] | null,
  items: Item[],
  calls: Record<string, CallView>,
  rewinds: readonly Rewind[] = [],
): FileChanges[] {
  if (!counted || counted.length === 0) return [];
  const byPath = touches(items, calls, rewinds);
  return counted.map((file) => {
    const t = byPath.get(file.path);
    return {
      path: file.path,
      kind: file.kind,
      added: file.added,
      removed: file.removed,
      text: file.text,
      kept: t?.kept ?? 0,
      undone: t?.undone ?? 0,
      rewound: t?.rewound ?? 0,
      partlyUndone: t?.partlyUndone ?? 0,
      byCommands: t?.byCommands ?? 0,
      itemId: t?.itemId ?? null,
      callIds: t?.callIds ?? [],
    };
  });
}
