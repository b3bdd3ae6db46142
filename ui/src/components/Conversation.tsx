// The conversation: messages and tool cards in order, as a virtualised list. Only the entries in
// and near the viewport are in the DOM; the others are stood in for by padding, sized from each
// entry's measured height (a ResizeObserver keeps it current) or an estimate for entries never
// rendered. The view follows new output unless the user scrolled up; then the entry at the top
// of the view stays where it is when heights change above it or output arrives below. The
// entries holding the ends of a selection stay rendered wherever the view goes, and a copy first
// renders every entry between them, so the browser's own copy has them all.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { flushSync } from "react-dom";
import type { CallView, Item, Rewind } from "../session/state";
import { rewoundIds } from "../session/rewinds";
import { Entry, type RetryOffer } from "./Entry";
import type { CardActions } from "./ToolCard";
import { entryAt, layoutOffsets, visibleRange } from "./virtualList";
import { boundaryRow, ENTRY_IDS, ENTRY_ROWS, useSelectionEnds } from "./virtualSelection";
import { undoableAfter, undoableAfterCounts } from "../session/undoAfter";
import { highlightFound } from "./findHighlight";

/** Rendered beyond each edge of the view, in pixels. */
export const OVERSCAN = 800;
/** Space above the first entry and below the last (each entry's 12 px gap is its own padding). */
const TOP_PAD = 16;
const BOTTOM_PAD = 12;
/** The viewport assumed before there is a layout (tests, a hidden pane). */
const FALLBACK_VIEW = 1000;
/** While output streams in, the find bar's marks are renewed at most this often (ms). */
const MARK_INTERVAL = 250;
/** Closer than this to the bottom counts as "at the bottom": the view follows new output. */
const FOLLOW_SLACK = 80;

/** A guess at an entry's height before it was ever rendered. */
function estimate(item: Item): number {
  switch (item.kind) {
    case "user":
      return 58;
    case "assistant":
      return 64;
    case "tool":
      return 120;
    default:
      return 44;
  }
}

interface Props {
  items: Item[];
  calls: Record<string, CallView>;
  /** What rewinds took back: those entries are faded, their changes look rewound. */
  rewinds?: Rewind[];
  actions: CardActions;
  onOpenLink(url: string): void;
  /**
   * Continues from before the user's message number `index` (counted among their messages)
   * whose text is `text`, in a new session; absent when the conversation cannot branch (it has
   * no stored session yet).
   */
  onBranch?(index: number, text: string): void;
  /** Rewinds the workspace to before the user's message number `index`; absent when it cannot. */
  onRewind?(index: number): void;
  /** What the find bar looks for, while it is open. */
  find?: FindView;
  /** The offer to run the model again, on the notice `at` that says why the last task ended. */
  retry?: RetryOffer;
  /** Shown after the last entry (the Working row). */
  footer?: ReactNode;
}

export type { RetryOffer };

/** What the find bar shows in the conversation. */
export interface FindView {
  query: string;
  /** The entry found that is shown (outlined, its occurrences marked as current). */
  currentId: number | null;
  /** Changed whenever that entry is to be brought into view (again). */
  reveal: number;
}

/** One rendered entry, registered for measuring while it is in the DOM. */
function Row({
  id,
  index,
  track,
  found = false,
  rewound = false,
  children,
}: {
  id: number;
  /** The entry's place in the list. */
  index: number;
  track(id: number, el: HTMLElement | null): void;
  /** The entry the find bar shows. */
  found?: boolean;
  /** A rewind took the entry back: it is faded. */
  rewound?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    track(id, ref.current);
    return () => track(id, null);
  }, [id, track]);
  return (
    <div
      className={`entry${found ? " entry-found" : ""}${rewound ? " entry-rewound" : ""}`}
      ref={ref}
      data-entry={id}
      data-entry-index={index}
    >
      {children}
    </div>
  );
}

/** Stands in for entries `from..to`, which are not rendered, between rendered ones. */
function Gap({ height, from, to }: { height: number; from: number; to: number }) {
  if (height <= 0) return null;
  return <div className="entry-gap" aria-hidden="true" style={{ height }} data-from={from} data-to={to} />;
}

/**
 * The runs of consecutive indexes among `indexes` (sorted, without duplicates): `[from, to)` each.
 */
function runs(indexes: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const i of indexes) {
    const last = out.at(-1);
    if (last && last[1] === i) last[1] = i + 1;
    else out.push([i, i + 1]);
  }
  return out;
}

/** No rewind took anything back. */
const NO_REWINDS: Rewind[] = [];

export function Conversation({ items, calls, rewinds = NO_REWINDS, actions, onOpenLink, onBranch, onRewind, find, retry, footer }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  /** Measured heights by item id (an entry's box including its gap). */
  const heights = useRef(new Map<number, number>());
  /** Rendered entries by item id. */
  const nodes = useRef(new Map<number, HTMLElement>());
  const observer = useRef<ResizeObserver | null>(null);
  // Bumped when a measured height changes, to lay out again.
  const [version, setVersion] = useState(0);
  const [view, setView] = useState({ top: 0, height: 0 });
  const [follow, setFollow] = useState(true);
  /** The entry at the top of the view and how far its top is below the view's top. */
  const anchor = useRef<{ id: number; delta: number } | null>(null);
  /** The scroll position last seen in a scroll event or set here. */
  const known = useRef(0);

  const offsets = useMemo(
    () => layoutOffsets(items.length, (i) => heights.current.get(items[i]!.id) ?? estimate(items[i]!)),
    // `version` stands for the contents of `heights`.
    [items, version],
  );
  const total = offsets[items.length]!;
  const viewHeight = view.height > 0 ? view.height : FALLBACK_VIEW;
  const top = follow ? Math.max(0, total - viewHeight) : Math.max(0, view.top - TOP_PAD);
  const [start, end] = visibleRange(offsets, top - OVERSCAN, top + viewHeight + OVERSCAN);
  // Also rendered: the entries holding the selection's ends, and while a copy is made, every
  // entry between them.
  const selected = useSelectionEnds(scroller, ENTRY_IDS);
  const [copying, setCopying] = useState<[number, number] | null>(null);
  const drawn = useMemo(() => {
    const set = new Set<number>();
    for (let i = start; i < end; i++) set.add(i);
    if (selected.length > 0) {
      const wanted = new Set(selected);
      items.forEach((item, i) => {
        if (wanted.has(item.id)) set.add(i);
      });
    }
    if (copying) for (let i = copying[0]; i <= copying[1] && i < items.length; i++) set.add(i);
    return runs([...set].sort((a, b) => a - b));
  }, [start, end, selected, copying, items]);
  const latest = useRef({ items, offsets, calls });
  latest.current = { items, offsets, calls };

  const rewound = useMemo(() => rewoundIds(items, rewinds), [items, rewinds]);
  // What a rewind took back is no longer on disk: not offered for undoing.
  const onDisk = useMemo(() => (rewound.size === 0 ? items : items.filter((item) => !rewound.has(item.id))), [items, rewound]);
  const onDiskRef = useRef(onDisk);
  onDiskRef.current = onDisk;

  // Undoing the file changes after a message of the user (only a running session can undo).
  const undoCounts = useMemo(() => undoableAfterCounts(onDisk, calls), [onDisk, calls]);
  const undo = actions.undo;
  const onUndoAfter = useMemo(
    () =>
      undo
        ? (id: number) => {
            for (const callId of undoableAfter(onDiskRef.current, latest.current.calls, id)) undo(callId);
          }
        : undefined,
    [undo],
  );

  // Branching at a message of the user: which of their messages it is, and its text.
  const onBranchAt = useMemo(
    () =>
      onBranch
        ? (id: number) => {
            const theirs = latest.current.items.filter((item): item is Item & { kind: "user" } => item.kind === "user");
            const index = theirs.findIndex((item) => item.id === id);
            const message = theirs[index];
            if (message) onBranch(index, message.text);
          }
        : undefined,
    [onBranch],
  );

  // Rewinding to before a message of the user: which of their messages it is.
  const onRewindAt = useMemo(
    () =>
      onRewind
        ? (id: number) => {
            const theirs = latest.current.items.filter((item) => item.kind === "user");
            const index = theirs.findIndex((item) => item.id === id);
            if (index >= 0) onRewind(index);
          }
        : undefined,
    [onRewind],
  );

  /** Takes the entry at the top of the view as the anchor, with the layout it is shown in. */
  const setAnchor = (el: HTMLElement, list: Item[], at: Float64Array) => {
    const first = Math.min(entryAt(at, Math.max(0, el.scrollTop - TOP_PAD)), list.length - 1);
    const item = list[first];
    anchor.current = item ? { id: item.id, delta: TOP_PAD + at[first]! - el.scrollTop } : null;
    known.current = el.scrollTop;
  };

  /** Reads the heights of the rendered entries; true when one changed. */
  const measure = useCallback((): boolean => {
    const el = scroller.current;
    if (!el || el.clientHeight === 0) return false; // no layout yet: keep the estimates
    let changed = false;
    for (const [id, node] of nodes.current) {
      const h = node.getBoundingClientRect().height;
      const old = heights.current.get(id);
      if (old === undefined || Math.abs(old - h) > 0.5) {
        heights.current.set(id, h);
        changed = true;
      }
    }
    return changed;
  }, []);

  const track = useCallback(
    (id: number, el: HTMLElement | null) => {
      const old = nodes.current.get(id);
      if (old && observer.current) observer.current.unobserve(old);
      if (el) {
        nodes.current.set(id, el);
        observer.current?.observe(el);
      } else {
        nodes.current.delete(id);
      }
    },
    [],
  );

  useLayoutEffect(() => {
    if (typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => {
      if (measure()) setVersion((v) => v + 1);
    });
    observer.current = ro;
    for (const el of nodes.current.values()) ro.observe(el);
    return () => {
      ro.disconnect();
      observer.current = null;
    };
  }, [measure]);

  // After every render: measure what was rendered (laying out again at once if a height
  // changed, before the browser paints), then keep the view at the bottom or on its anchor.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (measure()) {
      setVersion((v) => v + 1);
      return;
    }
    if (el.clientHeight !== view.height) setView({ top: el.scrollTop, height: el.clientHeight });
    if (follow) {
      const bottom = el.scrollHeight - el.clientHeight;
      // Scrolled up since the last scroll event: it will stop following; do not pull it back.
      if (el.scrollTop < known.current - 1) return;
      if (el.scrollTop < bottom - 0.5) el.scrollTop = bottom;
      known.current = el.scrollTop;
      return;
    }
    // Scrolled since the last scroll event (which is still to come): that is where the user
    // wants to be, so it becomes the anchor rather than being undone.
    if (Math.abs(el.scrollTop - known.current) >= 1) {
      setAnchor(el, items, offsets);
      return;
    }
    const a = anchor.current;
    if (!a) return;
    const index = items.findIndex((item) => item.id === a.id);
    if (index < 0) return;
    const want = TOP_PAD + offsets[index]! - a.delta;
    if (Math.abs(el.scrollTop - want) >= 1) el.scrollTop = want;
    known.current = el.scrollTop;
  });

  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
    setAnchor(el, latest.current.items, latest.current.offsets);
    setFollow(atBottom);
    setView((v) =>
      v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight },
    );
  };

  // A copy of a selection whose ends are rendered but not everything between them: the entries
  // between are rendered before the browser reads the selection (it copies after this handler),
  // and left to scroll out again afterwards.
  const list = useRef<HTMLDivElement>(null);
  const onCopy = () => {
    const el = list.current;
    const selection = document.getSelection();
    if (!el || !selection || selection.rangeCount === 0 || selection.isCollapsed) return;
    const range = selection.getRangeAt(0);
    const count = latest.current.items.length;
    const from = boundaryRow(ENTRY_ROWS, el, count, range.startContainer, range.startOffset, "start");
    const to = boundaryRow(ENTRY_ROWS, el, count, range.endContainer, range.endOffset, "end");
    if (!from || !to || to.index <= from.index) return;
    const missing = drawn.some(([, runEnd], k) => k + 1 < drawn.length && runEnd <= to.index && drawn[k + 1]![0] > from.index);
    if (missing) flushSync(() => setCopying([from.index, to.index]));
  };
  useEffect(() => {
    if (!copying) return;
    const id = setTimeout(() => setCopying(null), 0);
    return () => clearTimeout(id);
  }, [copying]);

  // Find: the entry found is brought into view, its top a quarter down the view, each time it is
  // asked for (through the anchor, so measuring the entries drawn there does not move it); the
  // occurrences among the entries drawn are marked after every render.
  const revealed = useRef(0);
  useLayoutEffect(() => {
    const el = scroller.current;
    // A closed find bar: the next one counts its requests afresh.
    if (!find) revealed.current = 0;
    if (!el || !find || find.currentId === null || find.reveal === revealed.current) return;
    revealed.current = find.reveal;
    const index = items.findIndex((item) => item.id === find.currentId);
    if (index < 0) return;
    const delta = el.clientHeight / 4;
    anchor.current = { id: find.currentId, delta };
    // There at once (by the estimates): staying at the old position until the entries there are
    // measured would let a height change clamp the scroll, which reads as the user's scroll.
    el.scrollTop = Math.max(0, TOP_PAD + offsets[index]! - delta);
    known.current = el.scrollTop;
    setFollow(false);
    setView({ top: el.scrollTop, height: el.clientHeight });
  });
  // Marking walks the text drawn, so while output streams in (a render a frame) it runs at most
  // every 250 ms; a new query, entry found or drawn range is marked at once.
  const marked = useRef({ key: "", at: 0 });
  const markKey = `${find?.query ?? ""}\n${find?.currentId ?? ""}\n${drawn.map(([a, b]) => `${a}-${b}`).join(",")}`;
  useEffect(() => {
    const mark = () => {
      marked.current = { key: markKey, at: performance.now() };
      highlightFound(list.current, find?.query ?? "", find?.currentId ?? null);
    };
    if (markKey !== marked.current.key) {
      mark();
      return;
    }
    if (!find?.query) return;
    const id = setTimeout(mark, Math.max(0, MARK_INTERVAL - (performance.now() - marked.current.at)));
    return () => clearTimeout(id);
  });
  useEffect(() => () => highlightFound(null, "", null), []);

  const first = drawn[0]?.[0] ?? 0;
  const lastEnd = drawn.at(-1)?.[1] ?? 0;
  return (
    <div className="conversation" ref={scroller} data-testid="conversation" onScroll={onScroll} onCopy={onCopy}>
      <div
        className="conversation-list"
        ref={list}
        style={{ paddingTop: TOP_PAD + offsets[first]!, paddingBottom: BOTTOM_PAD + total - offsets[lastEnd]! }}
      >
        {drawn.flatMap(([from, to], k) => {
          // One flat list keyed by item, so an entry stays mounted as the runs around it change.
          const children: ReactNode[] = [];
          if (k > 0) {
            const gapFrom = drawn[k - 1]![1];
            children.push(<Gap key={`gap-${gapFrom}`} height={offsets[from]! - offsets[gapFrom]!} from={gapFrom} to={from} />);
          }
          for (let i = from; i < to; i++) {
            const item = items[i]!;
            children.push(
              <Row
                key={item.id}
                id={item.id}
                index={i}
                track={track}
                found={find?.currentId === item.id}
                rewound={rewound.has(item.id)}
              >
                <Entry
                  item={item}
                  call={item.kind === "tool" ? calls[item.callId] : undefined}
                  calls={item.kind === "tool" && calls[item.callId]?.children.length ? calls : undefined}
                  actions={actions}
                  onOpenLink={onOpenLink}
                  undoAfter={item.kind === "user" ? undoCounts.get(item.id) : undefined}
                  onUndoAfter={onUndoAfter}
                  onBranch={onBranchAt}
                  onRewind={onRewindAt}
                  retry={retry?.at === item.id ? retry : undefined}
                  latest={i === items.length - 1}
                  found={find?.currentId === item.id}
                  rewound={rewound.has(item.id)}
                />
              </Row>,
            );
          }
          return children;
        })}
      </div>
      {footer && <div className="conversation-footer">{footer}</div>}
    </div>
  );
}
