// The user's mcp.json as a list of servers for the form editor, and back. The file stays the one
// truth: the list is read from its text and every edit writes new text, so the form and the
// "Advanced (JSON)" view edit the same thing. Keys the form does not show (`disabledTools`, a
// `discovery` block, anything newer) are carried through unchanged. A command server's sandbox
// (`"sandbox"`, `"sandboxNetwork"`) is written only when it is on: off is the default.
import type { SandboxLevel } from "../../protocol/SandboxLevel";

export type Transport = "command" | "url";

export interface McpServerEntry {
  name: string;
  transport: Transport;
  command: string;
  args: string[];
  url: string;
  /** Environment variables of a command server, or HTTP headers of a URL server. */
  env: [string, string][];
  enabled: boolean;
  /** Built-in tools this server's tools stand in for. */
  replaces: string[];
  /** Seconds a call may take, or null for the default. */
  timeout: number | null;
  /** How a command server is confined ("off": with the person's full rights). */
  sandbox: SandboxLevel;
  /** Whether a confined command server may reach the network. */
  sandboxNetwork: boolean;
  /** The server's other keys, written back as they were. */
  rest: Record<string, unknown>;
}

export type ParsedConfig = { ok: true; servers: McpServerEntry[] } | { ok: false; error: string };

const SHOWN = ["command", "args", "env", "url", "headers", "disabled", "replaces", "timeout", "sandbox", "sandboxNetwork"];

const LEVELS: SandboxLevel[] = ["off", "read-only", "workspace-write"];

/** The file's `"sandbox"`; anything else reads as off (the engine reports a bad value). */
function level(v: unknown): SandboxLevel {
  return LEVELS.find((l) => l === v) ?? "off";
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function pairs(v: unknown): [string, string][] {
  return isObject(v) ? Object.entries(v).map(([k, x]) => [k, String(x)]) : [];
}

function fileObject(text: string): Record<string, unknown> | string {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : "The file must hold one JSON object.";
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The servers of the file's text, in the file's order; an error when the text is not valid JSON. */
export function parseServers(text: string): ParsedConfig {
  const file = fileObject(text);
  if (typeof file === "string") return { ok: false, error: file };
  const raw = file.mcpServers;
  if (raw !== undefined && !isObject(raw)) return { ok: false, error: "`mcpServers` must be an object." };
  const servers = Object.entries(raw ?? {}).map(([name, value]): McpServerEntry => {
    const s = isObject(value) ? value : {};
    const url = typeof s.url === "string" ? s.url : "";
    const transport: Transport = url && typeof s.command !== "string" ? "url" : "command";
    const rest = Object.fromEntries(Object.entries(s).filter(([k]) => !SHOWN.includes(k)));
    return {
      name,
      transport,
      command: typeof s.command === "string" ? s.command : "",
      args: strings(s.args),
      url,
      env: transport === "url" ? pairs(s.headers) : pairs(s.env),
      enabled: s.disabled !== true,
      replaces: strings(s.replaces),
      timeout: typeof s.timeout === "number" ? s.timeout : null,
      sandbox: level(s.sandbox),
      sandboxNetwork: s.sandboxNetwork === true,
      rest,
    };
  });
  return { ok: true, servers };
}

function serverJson(s: McpServerEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const vars = Object.fromEntries(s.env);
  if (s.transport === "command") {
    out.command = s.command;
    if (s.args.length > 0) out.args = s.args;
    if (s.env.length > 0) out.env = vars;
    if (s.sandbox !== "off") {
      out.sandbox = s.sandbox;
      if (s.sandboxNetwork) out.sandboxNetwork = true;
    }
  } else {
    out.url = s.url;
    if (s.env.length > 0) out.headers = vars;
  }
  if (!s.enabled) out.disabled = true;
  if (s.replaces.length > 0) out.replaces = s.replaces;
  if (s.timeout !== null) out.timeout = s.timeout;
  return { ...out, ...s.rest };
}

/**
 * The file's text with `servers` as its `mcpServers`, keeping its other top-level keys. `text` is
 * the file as it is now; it must parse (the editor offers the form only then).
 */
export function writeServers(text: string, servers: McpServerEntry[]): string {
  const file = fileObject(text);
  const base = typeof file === "string" ? {} : file;
  const mcpServers = Object.fromEntries(servers.map((s) => [s.name, serverJson(s)]));
  return `${JSON.stringify({ ...base, mcpServers }, null, 2)}\n`;
}

/** A new, empty server for the Add form. */
export function emptyServer(): McpServerEntry {
  return {
    name: "",
    transport: "command",
    command: "",
    args: [],
    url: "",
    env: [],
    enabled: true,
    replaces: [],
    timeout: null,
    sandbox: "off",
    sandboxNetwork: false,
    rest: {},
  };
}

/** "KEY=value" lines to pairs; lines without "=" are skipped. */
export function parsePairs(text: string): [string, string][] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.includes("="))
    .map((line) => {
      const at = line.indexOf("=");
      return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    });
}

/** What is wrong with `entry` before it can be saved next to `others`, or null. */
export function entryProblem(entry: McpServerEntry, others: McpServerEntry[]): string | null {
  if (!entry.name.trim()) return "Give the server a name.";
  if (others.some((o) => o.name === entry.name.trim())) return `A server named “${entry.name.trim()}” exists already.`;
  if (entry.transport === "command" && !entry.command.trim()) return "Give the command that starts the server.";
  if (entry.transport === "url" && !/^https?:\/\//.test(entry.url.trim())) return "Give the server's http(s) URL.";
  if (entry.timeout !== null && !(Number.isInteger(entry.timeout) && entry.timeout >= 1 && entry.timeout <= 3600))
    return "The timeout is a whole number of seconds from 1 to 3600.";
  return null;
}
