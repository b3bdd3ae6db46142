/**
 * Incremental line splitting for text that grows while it streams.
 *
 * `update(text)` rescans only the part after the previously seen text when the new text extends
 * it, so appending a chunk to a 1 MiB buffer costs the chunk, not the buffer.
 */
export class LineIndex {
  private text = "";
  /** Offsets of every "\n" in `text`, in order. */
  private breaks: number[] = [];

  update(text: string): void {
    if (text === this.text) return;
    if (text.length >= this.text.length && text.startsWith(this.text)) {
      this.scan(text, this.text.length);
    } else {
      this.breaks = [];
      this.scan(text, 0);
    }
    this.text = text;
  }

  private scan(text: string, from: number): void {
    let at = text.indexOf("\n", from);
    while (at !== -1) {
      this.breaks.push(at);
      at = text.indexOf("\n", at + 1);
    }
  }

  /** Number of lines; a final newline does not start an extra empty line. Empty text has 0. */
  get count(): number {
    if (this.text.length === 0) return 0;
    const endsWithBreak = this.breaks.length > 0 && this.breaks[this.breaks.length - 1] === this.text.length - 1;
    return endsWithBreak ? this.breaks.length : this.breaks.length + 1;
  }

  /** The text of line `i` (0-based), without its newline. */
  line(i: number): string {
    const start = i === 0 ? 0 : (this.breaks[i - 1] ?? this.text.length) + 1;
    const end = this.breaks[i] ?? this.text.length;
    const line = this.text.slice(start, end);
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }

  /** Lines `from` (inclusive) to `to` (exclusive). */
  lines(from: number, to: number): string[] {
    const out: string[] = [];
    const end = Math.min(to, this.count);
    for (let i = Math.max(0, from); i < end; i++) out.push(this.line(i));
    return out;
  }
}
