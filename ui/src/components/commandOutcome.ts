// How a command's card says how it went, once: the outcome and the time in its header ("exit 0
// · 0.3 s"), its output in the body, and nothing written for the model (the "Exit code 0.
// Duration 0.0 s." line, "(no output)", the "Running `…`…" tip).
import { formatDuration } from "./toolSummary";

/**
 * `label — outcome in 1.2 s`, the engine's summary of a finished command (bash.rs); also the
 * outcome alone, should the engine stop repeating the label the header has already.
 */
const SUMMARY = /(?:^|\s—\s)(exit -?\d+|timed out|cancelled|signal -?\d+) in (\d+(?:\.\d+)?) s$/;

/** How a finished command went, for its header: "exit 0 · 0.3 s"; null when not said. */
export function commandOutcome(summary: string | null): { outcome: string; words: string } | null {
  const m = summary ? SUMMARY.exec(summary) : null;
  if (!m) return null;
  const seconds = Number(m[2]);
  const time = seconds < 60 ? `${m[2]} s` : formatDuration(seconds * 1000);
  return { outcome: m[1]!, words: `${m[1]} · ${time}` };
}

/**
 * Whether a command's progress tip only says again what the card's header says: the agent's
 * description of it ("Installing deps…") or its first line (`Running \`npm ci\`…`).
 */
export function restatesCommand(status: string, title: string | null): boolean {
  if (!title) return false;
  return status === `${title}…` || status === `Running \`${title}\`…`;
}

/** The first line of what the model gets for a command: how it ended and how long it took. */
const STATUS_LINE =
  /^(?:Exit code -?\d+\.|Killed by signal -?\d+\.|Timed out after \d+ ms; [^\n]*|Cancelled; [^\n]*) Duration \d+(?:\.\d+)? s\.\n/;

/**
 * The command's output as the model got it, without the line for the model and its "(no
 * output)": what a card shows when it has no live output (a session opened again keeps only
 * what the model got). Null when `result` is not in that form.
 */
export function commandOutput(result: string | null): string | null {
  if (!result) return null;
  const m = STATUS_LINE.exec(result);
  if (!m) return null;
  const output = result.slice(m[0].length);
  return output === "(no output)\n" ? "" : output;
}
