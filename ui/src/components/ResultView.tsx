import { useMemo, useState, type ReactNode } from "react";
import type { CallImages } from "../protocol/CallImages";
import type { ToolKind } from "../protocol/ToolKind";
import { ResultImages } from "./ResultImages";

/** Results longer than this start collapsed. */
export const RESULT_COLLAPSED_LINES = 20;

/** A path the result names, with the line when it names one. */
export type PathRef = { path: string; line?: number; /** Characters of the line the path covers. */ length: number };

/** A workspace-relative path: not absolute, no `..`, no surrounding blanks. */
export function isWorkspacePath(p: string): boolean {
  if (p.length === 0 || p !== p.trim()) return false;
  if (/^[/\\~]/.test(p) || /^[A-Za-z]:[\\/]/.test(p) || p.includes("\0")) return false;
  if (p.split(/[\\/]/).some((seg) => seg === "..")) return false;
  return !p.startsWith("…") && p !== "--";
}

function joinPath(base: string | undefined, name: string): string {
  if (!base || base === ".") return name;
  return `${base.replace(/\/+$/, "")}/${name}`;
}

/**
 * The paths in a search's or a listing's result, one per line (undefined for lines without
 * one). A search (`search` kind: grep, glob): `path:12:text` (match), `path-12-text` (context,
 * for a path already seen), `path:3` (count), or a bare path; a listing (`read` kind: ls):
 * `name/`, `name@` or `name  (N bytes)`, joined to `basePath` (a file's numbered lines never
 * match: they start with blanks).
 */
export function findPaths(kind: ToolKind, lines: string[], basePath?: string): (PathRef | undefined)[] {
  const seen = new Set<string>();
  return lines.map((line): PathRef | undefined => {
    if (kind === "search") {
      const match = /^([^:\n]+):(\d+):/.exec(line);
      if (match && isWorkspacePath(match[1]!)) {
        seen.add(match[1]!);
        return { path: match[1]!, line: Number(match[2]), length: match[1]!.length };
      }
      for (const path of seen) {
        const context = line.startsWith(`${path}-`) ? /^-(\d+)-/.exec(line.slice(path.length)) : null;
        if (context) return { path, line: Number(context[1]), length: path.length };
      }
      const count = /^([^:\n]+):\d+$/.exec(line);
      if (count && isWorkspacePath(count[1]!)) return { path: count[1]!, length: count[1]!.length };
      if (/^No matches/.test(line) || line === "No files matched.") return undefined;
      return isWorkspacePath(line) ? { path: line, length: line.length } : undefined;
    }
    if (kind === "read") {
      const entry = /^(.+?)(?:\/|@|  \(\d+ bytes\))$/.exec(line);
      if (!entry || !isWorkspacePath(entry[1]!)) return undefined;
      return { path: joinPath(basePath, entry[1]!), length: entry[1]!.length };
    }
    return undefined;
  });
}

/**
 * A tool's final result text (a failure's message), with the images it returned (the model got
 * a note about each). Long results start collapsed; the results of searches and listings turn
 * workspace paths into buttons that call `onOpenPath`.
 */
export function ResultView(props: {
  /** The tool's name, for the images' descriptions. */
  tool: string;
  kind: ToolKind;
  text: string;
  isError: boolean;
  onOpenPath?: (path: string, line?: number) => void;
  /** The directory an `ls` result lists, relative to the workspace root. */
  basePath?: string;
  /** Images the tool returned, for the user. */
  images?: CallImages | null;
}) {
  const { tool, kind, text, isError, onOpenPath, basePath, images } = props;
  const lines = useMemo(() => {
    const all = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
    if (all.length > 1 && all[all.length - 1] === "") all.pop();
    return all;
  }, [text]);
  const long = lines.length > RESULT_COLLAPSED_LINES;
  const [expanded, setExpanded] = useState(false);
  const shown = useMemo(
    () => (long && !expanded ? lines.slice(0, RESULT_COLLAPSED_LINES) : lines),
    [lines, long, expanded],
  );
  const paths = useMemo(
    () => (onOpenPath && !isError ? findPaths(kind, shown, basePath) : []),
    [onOpenPath, isError, kind, shown, basePath],
  );

  const rendered: ReactNode[] = shown.map((line, i) => {
    const ref = paths[i];
    const content =
      ref && onOpenPath ? (
        <>
          <button
            type="button"
            className="result-path"
            aria-label={ref.line === undefined ? `Open ${ref.path}` : `Open ${ref.path} at line ${ref.line}`}
            onClick={() => onOpenPath(ref.path, ref.line)}
          >
            {line.slice(0, ref.length)}
          </button>
          {line.slice(ref.length)}
        </>
      ) : (
        line
      );
    return (
      <span className="result-line" key={i}>
        {content}
        {"\n"}
      </span>
    );
  });

  return (
    <div className={isError ? "result-view result-error" : "result-view"}>
      {isError && <span className="result-error-label">Error</span>}
      <pre className="result-text">{rendered}</pre>
      {images && <ResultImages tool={tool} images={images} />}
      {long && (
        <button type="button" className="ghost result-toggle" aria-expanded={expanded} onClick={() => setExpanded((e) => !e)}>
          {expanded ? "Show less" : `Show all ${lines.length} lines`}
        </button>
      )}
    </div>
  );
}
