/**
 * Marks the document with the platform when a stylesheet must differ by it: `data-platform`
 * is `"linux"` on Linux (WebKitGTK), absent elsewhere. See the font stacks in styles.css.
 */
export function markPlatform(root: HTMLElement, userAgent: string): void {
  if (/\bLinux\b/.test(userAgent) && !/\bAndroid\b/.test(userAgent)) root.dataset.platform = "linux";
}

/** Whether `userAgent` is Apple's (macOS, iOS): its shortcuts use Cmd where others use Ctrl. */
export function isApple(userAgent: string): boolean {
  return /\b(Macintosh|Mac OS X|iPhone|iPad)\b/.test(userAgent);
}

/**
 * Whether `e` holds the platform's shortcut key and no other modifier: Cmd on Apple's systems
 * (where Ctrl+F moves the caret in a text field), Ctrl elsewhere.
 */
export function shortcutKey(e: { ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }, userAgent = navigator.userAgent): boolean {
  const apple = isApple(userAgent);
  return (apple ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey) && !e.altKey && !e.shiftKey;
}
