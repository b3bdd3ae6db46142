// What an approval approves, in a few words for its bar: "Write hello.txt · +60 −2",
// "Run cargo test", "Fetch https://example.com".
import type { CallView } from "../session/state";
import { argText } from "./toolSummary";

const VERB: Partial<Record<CallView["kind"], string>> = {
  execute: "Run",
  fetch: "Fetch",
};

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The words and the line counts of what the waiting call would do. */
export function approvalWhat(call: Pick<CallView, "name" | "kind" | "title" | "preview" | "view" | "args">): {
  words: string;
  added: number | null;
  removed: number | null;
} {
  // A command is named by itself (its title may be the agent's description of it).
  const command = call.view.as === "command" ? argText(call.args, call.view.command)?.split("\n")[0] : null;
  const target = call.preview?.path ?? command ?? call.title ?? "";
  const verb = VERB[call.kind] ?? capitalised(call.name.replace(/_/g, " "));
  const words = target ? `${verb} ${target}` : verb;
  if (!call.preview) return { words, added: null, removed: null };
  return { words, added: call.preview.lines_added, removed: call.preview.lines_removed };
}
