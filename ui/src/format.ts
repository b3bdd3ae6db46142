/**
 * "just now", "5 minutes ago", "yesterday", or a date, for a unix-milliseconds time; "" for a
 * time not known (0 or less: the engine stores 0 when the clock read failed), which is not the
 * first of January 1970.
 */
export function formatWhen(ms: number, now: number = Date.now()): string {
  if (!(ms > 0)) return "";
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return "yesterday";
  if (days < 7) return `${days} days ago`;
  return new Date(ms).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** A size on disk: "512 bytes", "12 KiB", "3.4 MiB", "1.2 GiB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1 << 30) return `${(bytes / (1 << 30)).toFixed(1)} GiB`;
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
  if (bytes >= 1 << 10) return `${Math.round(bytes / (1 << 10))} KiB`;
  return bytes === 1 ? "1 byte" : `${bytes} bytes`;
}
