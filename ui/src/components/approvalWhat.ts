// What an approval approves, in a few words for its bar: "Write hello.txt · +60 −2",
// "Run this command", "Fetch https://example.com", "Use echo · everything".
import type { CallView } from "../session/state";
import { externalTool } from "./toolName";

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
  // A command is on its card right above the bar (its header, or in full under it): the bar
  // does not say it again.
  if (call.view.as === "command") return { words: "Run this command", added: null, removed: null };
  const ext = externalTool(call.name);
  const target = call.preview?.path ?? call.title ?? "";
  const verb = ext ? `Use ${ext.tool} · ${ext.server}` : (VERB[call.kind] ?? capitalised(call.name.replace(/_/g, " ")));
  const words = target && !ext ? `${verb} ${target}` : verb;
  if (!call.preview) return { words, added: null, removed: null };
  return { words, added: call.preview.lines_added, removed: call.preview.lines_removed };
}
