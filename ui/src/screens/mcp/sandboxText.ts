// What the MCP screen says of a server's sandbox: with it off, plainly that the server has the
// person's full rights; with a level, what it may do, in the words of a command's card.
import { sandboxWords } from "../../components/sandboxWords";
import type { SandboxLevel } from "../../protocol/SandboxLevel";

export const FULL_RIGHTS = "Runs with your full rights: it can read and write anything you can, and reach the network.";

/** The sentence for a server run at `level` (with or without the network). */
export function sandboxText(level: SandboxLevel, network: boolean): string {
  if (level === "off") return FULL_RIGHTS;
  return `Sandboxed: ${sandboxWords(level, network)}. The paths hidden in Settings › Sandbox stay hidden from it.`;
}
