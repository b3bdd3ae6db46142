import { describe, expect, it } from "vitest";
import type { WorkspaceChange } from "../protocol/WorkspaceChange";
import { changeLook, isChange, type ChangeInput } from "./changeLook";

const file: WorkspaceChange = { path: "a.txt", kind: "modified", diff: null };

describe("changeLook", () => {
  const cases: [string, ChangeInput, ReturnType<typeof changeLook>][] = [
    ["a file change on disk", { state: "succeeded", kind: "edit", undo: "available" }, { disk: "applied", faded: false, mark: null }],
    ["one that can no longer be undone is still on disk", { state: "succeeded", kind: "edit", undo: "expired" }, { disk: "applied", faded: false, mark: null }],
    ["partly undone", { state: "succeeded", kind: "edit", undo: "partly" }, { disk: "partly-undone", faded: false, mark: "Partly undone" }],
    ["undone", { state: "succeeded", kind: "edit", undo: "done" }, { disk: "undone", faded: true, mark: "Undone" }],
    ["rewound", { state: "succeeded", kind: "edit", undo: "available", rewound: true }, { disk: "rewound", faded: true, mark: "Rewound" }],
    ["partly undone, then rewound", { state: "succeeded", kind: "edit", undo: "partly", rewound: true }, { disk: "rewound", faded: true, mark: "Rewound" }],
    ["undone, then rewound: still undone", { state: "succeeded", kind: "edit", undo: "done", rewound: true }, { disk: "undone", faded: true, mark: "Undone" }],
    ["a file change stored before undo was kept", { state: "succeeded", kind: "other", preview: { path: "a.txt", created: true, lines_added: 1, lines_removed: 0, diff: null } }, { disk: "applied", faded: false, mark: null }],
    ["a command that changed files", { state: "succeeded", kind: "execute", changes: [file] }, { disk: "applied", faded: false, mark: null }],
    ["a command whose changes were not listed", { state: "succeeded", kind: "execute", changes: null }, { disk: "applied", faded: false, mark: null }],
    ["a command, rewound", { state: "succeeded", kind: "execute", changes: [file], rewound: true }, { disk: "rewound", faded: true, mark: "Rewound" }],
    ["an external tool that changed files, rewound", { state: "succeeded", kind: "other", changes: [file], rewound: true }, { disk: "rewound", faded: true, mark: "Rewound" }],
  ];
  it.each(cases)("%s", (_, input, look) => {
    expect(changeLook(input)).toEqual(look);
  });

  const noChange: [string, ChangeInput][] = [
    ["a command that changed no files, even rewound", { state: "succeeded", kind: "execute", changes: [], rewound: true }],
    ["a read, even rewound", { state: "succeeded", kind: "read", rewound: true }],
    ["an external tool with no changes listed", { state: "succeeded", kind: "other", changes: null }],
    ["a rejected change", { state: "rejected", kind: "edit", undo: null, rewound: true }],
    ["a failed command", { state: "failed", kind: "execute", changes: [file], rewound: true }],
    ["a stopped command", { state: "cancelled", kind: "execute", rewound: true }],
    ["a change still waiting", { state: "awaiting_approval", kind: "edit" }],
    ["a command still running", { state: "executing", kind: "execute", rewound: true }],
  ];
  it.each(noChange)("%s keeps the look of its state", (_, input) => {
    expect(isChange(input)).toBe(false);
    expect(changeLook(input)).toEqual({ disk: null, faded: false, mark: null });
  });
});
