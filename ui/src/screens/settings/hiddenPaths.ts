// The paths hidden from confined commands, as Settings › Sandbox edits them: whether a path you
// type can be added. Which entries are the engine's defaults (they can be turned off, not
// removed: the engine adds a missing one back) comes from the settings view.
import type { HiddenPath } from "../../protocol/HiddenPath";

/** `typed` as it is stored: trimmed, without trailing slashes ("~/.ssh/" is "~/.ssh"). */
export function normalHiddenPath(typed: string): string {
  const path = typed.trim();
  const bare = path.replace(/\/+$/, "");
  if (path && bare === "") return "/";
  return bare === "~" ? "~/" : bare;
}

/**
 * Why `typed` cannot be added to `list` (with the app's own folders `own`), or null when it can.
 * The engine ignores a relative path: it would name a different place in each workspace.
 */
export function hiddenPathProblem(typed: string, list: HiddenPath[], own: string[]): string | null {
  const path = normalHiddenPath(typed);
  if (!path) return "Type a path to hide.";
  if (!path.startsWith("/") && !path.startsWith("~/")) {
    return `“${path}” is relative: start it with / or ~/ (your home folder).`;
  }
  if (path === "/" || path === "~/") return "That hides everything: name a folder or a file.";
  if (own.includes(path)) return `${path} is one of the app's own folders, always hidden.`;
  if (list.some((entry) => normalHiddenPath(entry.path) === path)) return `${path} is already listed.`;
  return null;
}
