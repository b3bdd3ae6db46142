// Applies the engine's partial-JSON patches (see foreman_core::partial_json::Patch) to a value.
// Applying every patch of a call, in order, to `null` gives the call's arguments so far.

type Segment = string | number;

export type JsonPatch =
  | { op: "set"; path: Segment[]; value: unknown }
  | { op: "append"; path: Segment[]; text: string }
  | { op: "push"; path: Segment[]; value: unknown }
  | { op: "close"; path: Segment[] };

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function copy(value: Container): Container {
  return Array.isArray(value) ? value.slice() : { ...value };
}

/**
 * Returns a new value with `patch` applied; containers along the path are copied (so React sees
 * a change) and everything else is shared. A patch whose path does not fit changes nothing.
 */
export function applyPatch(root: unknown, patch: JsonPatch): unknown {
  if (patch.op === "close") return root;
  const path = patch.path;
  if (patch.op === "set" && path.length === 0) return patch.value;
  return update(root, path, 0, patch);
}

function update(node: unknown, path: Segment[], depth: number, patch: JsonPatch): unknown {
  if (!isContainer(node)) {
    if (depth === path.length && patch.op === "append" && typeof node === "string") {
      return node + patch.text;
    }
    return node;
  }
  if (depth === path.length) {
    if (patch.op === "push" && Array.isArray(node)) return [...node, patch.value];
    return node;
  }
  const key = path[depth];
  if (key === undefined) return node;
  const last = depth === path.length - 1;
  const next = copy(node);
  if (last && patch.op === "set") {
    (next as Record<string | number, unknown>)[key] = patch.value;
    return next;
  }
  const child = (node as Record<string | number, unknown>)[key];
  if (child === undefined) return node;
  (next as Record<string | number, unknown>)[key] = update(child, path, depth + 1, patch);
  return next;
}

/** Applies `patches` in order. */
export function applyPatches(root: unknown, patches: readonly unknown[]): unknown {
  let value = root;
  for (const patch of patches) value = applyPatch(value, patch as JsonPatch);
  return value;
}
