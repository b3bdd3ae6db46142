// From what the window reported to the contrast table: for each thing measured, the worst of
// its elements on screen, the ratio it needs, the table printed to the log, and the rows that
// fall short. Pure, so `node --test lib/` checks it without a window.
import { AA_CONTROL, measure, neededRatio } from "./contrastMath.mjs";

/** Kinds whose front colour is text (4.5:1, or 3:1 when large); the others are controls (3:1). */
const TEXT_KINDS = new Set(["text", "placeholder"]);

/**
 * The row for `target` ({ what, kind, needed?, note? }) from `found` ({ samples, note? }), each
 * sample as `measure` takes it plus { fontSize, fontWeight, where }. The row is the sample with
 * the least margin over what it needs: { what, fg, bg, ratio, needed, where, seen, note }.
 * `ratio` is null when nothing was measured (not on screen, or colours that cannot be read),
 * and `note` says why.
 */
export function rowOf(target, found) {
  const samples = found?.samples ?? [];
  const neededBy = (sample) =>
    target.needed ?? (TEXT_KINDS.has(target.kind) ? neededRatio("text", sample.fontSize, sample.fontWeight) : AA_CONTROL);
  let worst = null;
  let unread = null;
  for (const sample of samples) {
    const measured = measure(sample);
    if (!measured) {
      unread ??= sample;
      continue;
    }
    const needed = neededBy(sample);
    if (!worst || measured.ratio / needed < worst.ratio / worst.needed) worst = { ...measured, needed, where: sample.where };
  }
  const notes = [target.note, found?.note].filter(Boolean);
  if (!worst) {
    if (samples.length === 0) notes.unshift("not on screen");
    else notes.unshift(`colours not readable (fg ${JSON.stringify(unread.fg ?? null)}) at ${unread.where}`);
  }
  return {
    what: target.what,
    fg: worst?.fg ?? null,
    bg: worst?.bg ?? null,
    ratio: worst?.ratio ?? null,
    needed: worst?.needed ?? target.needed ?? (TEXT_KINDS.has(target.kind) ? neededRatio("text") : AA_CONTROL),
    where: worst?.where ?? null,
    seen: samples.length,
    note: notes.join("; "),
  };
}

/** Whether a row meets what it needs. */
export function passes(row) {
  return row.ratio !== null && row.ratio >= row.needed;
}

/** One line for each row that falls short, naming what, the colours and where. */
export function failures(rows) {
  return rows
    .filter((row) => !passes(row))
    .map((row) =>
      row.ratio === null
        ? `${row.what}: not measured (${row.note})`
        : `${row.what}: ${row.ratio}:1 < ${row.needed}:1 (${row.fg} on ${row.bg} at ${row.where})`,
    );
}

/** The rows as a fixed-width table for the log, with the title `title` above it. */
export function formatTable(title, rows) {
  const header = ["what", "fg", "bg", "ratio", "needed", "", "worst at"];
  const lines = rows.map((row) => [
    row.what,
    row.fg ?? "-",
    row.bg ?? "-",
    row.ratio === null ? "-" : row.ratio.toFixed(2),
    row.needed.toFixed(1),
    passes(row) ? "ok" : "FAIL",
    row.where ?? row.note,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => String(line[i]).length)));
  const format = (cells) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? String(cell) : String(cell).padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [`contrast: ${title}`, format(header), ...lines.map(format)].join("\n");
}
