/**
 * Marks the document with the platform when a stylesheet must differ by it: `data-platform`
 * is `"linux"` on Linux (WebKitGTK), absent elsewhere. See the font stacks in styles.css.
 */
export function markPlatform(root: HTMLElement, userAgent: string): void {
  if (/\bLinux\b/.test(userAgent) && !/\bAndroid\b/.test(userAgent)) root.dataset.platform = "linux";
}
