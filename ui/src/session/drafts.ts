// Unsent messages, kept per conversation in the webview's local storage, so a draft survives
// switching conversations, leaving the workspace screen for Settings, the page being loaded
// again after its web process ended, and a restart of the app.

const PREFIX = "foreman.draft\n";

/** The key of a conversation's draft: its workspace and session (`null`: a new conversation). */
export function draftKey(workspace: string, session: string | null): string {
  return `${PREFIX}${workspace}\n${session ?? ""}`;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The draft saved under `key`, or "". */
export function loadDraft(key: string): string {
  try {
    return storage()?.getItem(key) ?? "";
  } catch {
    return "";
  }
}

/**
 * Saves `text` under `key` (an empty one removes the entry). A draft the storage refuses (over
 * its quota) is not saved; the composer still holds it.
 */
export function saveDraft(key: string, text: string): void {
  try {
    if (text === "") storage()?.removeItem(key);
    else storage()?.setItem(key, text);
  } catch {
    // Best effort: nothing else depends on the saved copy.
  }
}
