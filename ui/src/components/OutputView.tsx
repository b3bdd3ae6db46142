import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { cleanTerminalLine } from "./ansi";
import { LineIndex } from "./lineIndex";

/** Lines of output kept on screen; earlier ones are summarised. */
export const OUTPUT_MAX_LINES = 2000;

/**
 * Live command output (stdout and stderr merged): escape sequences stripped, only the last
 * {@link OUTPUT_MAX_LINES} lines rendered, kept scrolled to the bottom while the command runs
 * unless the user scrolled up. How the command ended is its card's header's to say.
 */
export function OutputView(props: { text: string; running: boolean }) {
  const { text, running } = props;
  const indexRef = useRef<LineIndex | null>(null);
  indexRef.current ??= new LineIndex();
  const index = indexRef.current;
  index.update(text);
  const count = index.count;
  const from = Math.max(0, count - OUTPUT_MAX_LINES);
  const lines = useMemo(
    () => index.lines(from, count).map(cleanTerminalLine),
    [index, from, count, text.length],
  );

  const scroller = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  const [following, setFollowing] = useState(true);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (running && stick.current && el) el.scrollTop = el.scrollHeight;
  }, [running, text.length]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
    stick.current = atBottom;
    setFollowing(atBottom);
  };

  const jumpToEnd = () => {
    const el = scroller.current;
    stick.current = true;
    setFollowing(true);
    if (el) el.scrollTop = el.scrollHeight;
  };

  return (
    <div className="output-view">
      <pre
        className="output-text"
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        role="log"
        aria-label="Command output"
        aria-busy={running}
      >
        {from > 0 && (
          <span className="output-note">
            … {from} earlier {from === 1 ? "line" : "lines"}
            {"\n"}
          </span>
        )}
        {lines.join("\n")}
      </pre>
      <div className="output-status">
        {running && <span className="output-running muted">running…</span>}
        {running && !following && (
          <button type="button" className="ghost output-jump" onClick={jumpToEnd}>
            Jump to latest output
          </button>
        )}
      </div>
    </div>
  );
}
