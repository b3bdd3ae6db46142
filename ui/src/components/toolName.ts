// How a card names its tool: a built-in by its name, an external (MCP) tool by its own name and
// its server ("echo · everything"), not by the `server__tool` name the model calls it by. With
// no title from the engine (an external tool has none), the header says what the call acts on
// from its arguments, in a few words.
import type { ToolKind } from "../protocol/ToolKind";
import { toolIcon } from "./toolSummary";

/** The tool's own name and its server, for a tool of an MCP server; null for a built-in. */
export function externalTool(name: string): { tool: string; server: string } | null {
  // The engine names an MCP server's tool `server__tool` (mcp/naming.rs); no built-in has `__`.
  const at = name.indexOf("__");
  if (at <= 0 || at + 2 >= name.length) return null;
  return { server: name.slice(0, at), tool: name.slice(at + 2) };
}

/** The icon of an external tool: a call that leaves the app for a server. */
export const EXTERNAL_ICON = "⇄";

/** The card's icon: an external tool's own, else its kind's. */
export function cardIcon(name: string, kind: ToolKind): string {
  return externalTool(name) ? EXTERNAL_ICON : toolIcon(kind);
}

/** The tool's name as the person reads it: `echo · everything` for `everything__echo`. */
export function toolLabel(name: string): string {
  const ext = externalTool(name);
  return ext ? `${ext.tool} · ${ext.server}` : name;
}

/** Longest gist of the arguments shown in a header (it ellipsises beyond the line anyway). */
const GIST_CHARS = 120;

function plain(v: unknown): string | null {
  if (typeof v === "string") return v.split("\n")[0]!.trim() || null;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return null;
}

/**
 * What a call acts on, from its arguments, when the engine gave no title: the one plain value
 * (`hello from MCP`), or the plain values by name (`path: a.rs · limit: 40`). Nested values are
 * left to the parameters.
 */
export function argsGist(args: unknown): string | null {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return null;
  const values = Object.entries(args as Record<string, unknown>)
    .map(([k, v]) => [k, plain(v)] as const)
    .filter((e): e is readonly [string, string] => e[1] !== null);
  if (values.length === 0) return null;
  const gist = values.length === 1 ? values[0]![1] : values.map(([k, v]) => `${k}: ${v}`).join(" · ");
  return gist.length > GIST_CHARS ? `${gist.slice(0, GIST_CHARS)}…` : gist;
}
