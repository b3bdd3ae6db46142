// What a confined program may do, in the words of a command's card (SandboxLine) and of the MCP
// screen: "writes the workspace only · no network".
import type { SandboxLevel } from "../protocol/SandboxLevel";

const WHAT = {
  "read-only": "writes nothing but a temporary folder",
  "workspace-write": "writes the workspace only",
  off: "runs with your full rights",
} as const;

/** What a program at `level` may write, and whether it may reach the network. */
export function sandboxWords(level: SandboxLevel, network: boolean): string {
  if (level === "off") return WHAT.off;
  return `${WHAT[level]} · ${network ? "network allowed" : "no network"}`;
}
