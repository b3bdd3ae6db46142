// A file path shown whole: it may wrap only after a slash (never mid-word), and a button copies it.
import { Fragment, useEffect, useRef, useState } from "react";

/** The path's parts, each ending with its slash, so a line breaks only after one. */
export function pathParts(path: string): string[] {
  return path.split(/(?<=[/\\])/).filter(Boolean);
}

export function PathText({ path }: { path: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = () => {
    const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
    if (!clipboard?.writeText) return;
    clipboard.writeText(path).then(
      () => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), 1500);
      },
      () => setCopied(false),
    );
  };
  return (
    <span className="path-text">
      <code data-testid="path-text">
        {pathParts(path).map((part, i) => (
          <Fragment key={i}>
            {part}
            <wbr />
          </Fragment>
        ))}
      </code>
      <button type="button" className="ghost small path-copy" title={`Copy ${path}`} aria-label="Copy the path" onClick={copy}>
        {copied ? "Copied" : "Copy"}
      </button>
    </span>
  );
}
