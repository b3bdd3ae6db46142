import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { LineIndex } from "./lineIndex";

/** Lines shown when the text is complete, before "Show all N lines". */
export const LIVE_TEXT_CAP = 2000;

/**
 * Lines rendered while the text streams: a little more than the 360 px view holds (about 20).
 * Each update lays out and repaints these lines again, so a long tail made a fast stream stall
 * the webview (with 200 lines, their forced layout took 100-380 ms a frame in the loaded e2e
 * window; in the release build 40 lines took 10-12 ms per update and 24 take 7-8 ms).
 */
export const LIVE_TAIL_LINES = 24;

/**
 * A file's content as it streams into a write card: numbered monospace lines. While streaming
 * only the last `tailLines` lines are rendered and the view sticks to the bottom; once complete
 * the first `maxLines` lines are shown with a button for the rest. Line breaks are
 * found incrementally, so a growing 1 MiB text costs only each new chunk.
 */
export function LiveText(props: {
  text: string;
  streaming: boolean;
  tailLines?: number;
  label?: string;
  /** Lines shown once complete before "Show all" (default {@link LIVE_TEXT_CAP}). */
  maxLines?: number;
}) {
  const { text, streaming, label } = props;
  const tailLines = Math.max(1, props.tailLines ?? LIVE_TAIL_LINES);
  const indexRef = useRef<LineIndex | null>(null);
  indexRef.current ??= new LineIndex();
  const index = indexRef.current;
  index.update(text);
  const count = index.count;
  const [showAll, setShowAll] = useState(false);

  const from = streaming ? Math.max(0, count - tailLines) : 0;
  const to = streaming || showAll ? count : Math.min(count, Math.max(1, props.maxLines ?? LIVE_TEXT_CAP));
  // `text.length` stands in for the text: the index already holds it.
  const lines = useMemo(() => index.lines(from, to), [index, from, to, text.length]);

  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (streaming && el) el.scrollTop = el.scrollHeight;
  }, [streaming, text.length]);

  const width = String(to).length;
  return (
    <div className="live-text">
      <div
        className="live-text-scroll"
        ref={scroller}
        role="region"
        aria-label={label ?? "File content"}
        aria-busy={streaming}
        tabIndex={0}
      >
        {from > 0 && (
          <div className="live-text-note muted">
            … {from} earlier {from === 1 ? "line" : "lines"}
          </div>
        )}
        <pre className="live-text-lines" style={{ ["--num-width" as string]: `${width}ch` }}>
          {lines.map((line, i) => (
            <div className="lt-line" key={from + i}>
              <span className="lt-num" aria-hidden="true">
                {from + i + 1}
              </span>
              <span className="lt-code">{line}</span>
            </div>
          ))}
        </pre>
      </div>
      {!streaming && to < count && (
        <button type="button" className="live-text-more" onClick={() => setShowAll(true)}>
          Show all {count} lines
        </button>
      )}
    </div>
  );
}
