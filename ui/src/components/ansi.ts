// CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC strings, charset designations
// (ESC ( B), other two-character escapes (ESC 7, ESC =, ESC c…), and the 8-bit CSI.
const ANSI =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]+[0-~]|\x1b[0-~]|\x9b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * One line of terminal output as plain text: escape sequences and control characters removed,
 * and a carriage return (progress bars) keeps only what was drawn last.
 */
export function cleanTerminalLine(line: string): string {
  let out = line.includes("\x1b") || line.includes("\x9b") ? line.replace(ANSI, "") : line;
  const cr = out.lastIndexOf("\r");
  if (cr !== -1) out = out.slice(cr + 1);
  return out.replace(CONTROL, "");
}

/** Whole text with escape sequences removed (line structure kept). */
export function stripAnsi(text: string): string {
  return text.split("\n").map(cleanTerminalLine).join("\n");
}
