// The conversation: messages and tool cards in order. A long session renders only its latest
// entries (PAGE at a time); earlier ones are added when the person scrolls to the top, keeping
// the view where it was. Off-screen entries are also skipped by the browser's renderer
// (content-visibility). The view follows new output unless the person scrolled up.
import { memo, useEffect, useLayoutEffect, useRef, useState } from "react";

/** Entries rendered at first, and added per step when scrolling back. */
export const PAGE = 120;
import type { CallView, Item } from "../session/state";
import { Markdown } from "./Markdown";
import { ToolCard, type CardActions } from "./ToolCard";

interface Props {
  items: Item[];
  calls: Record<string, CallView>;
  actions: CardActions;
  onOpenLink(url: string): void;
}

const Entry = memo(function Entry({
  item,
  call,
  calls,
  actions,
  onOpenLink,
}: {
  item: Item;
  call: CallView | undefined;
  /** Every call, only for a card with a sub-agent's calls nested in it. */
  calls: Record<string, CallView> | undefined;
  actions: CardActions;
  onOpenLink(url: string): void;
}) {
  switch (item.kind) {
    case "user":
      return (
        <div className="msg msg-user" data-testid="user-message">
          <div className="msg-body">{item.text}</div>
        </div>
      );
    case "assistant":
      return (
        <div className="msg msg-assistant" data-testid="assistant-message">
          <Markdown text={item.text} onOpenLink={onOpenLink} />
        </div>
      );
    case "thinking":
      return (
        <details className="msg msg-thinking">
          <summary className="muted">Thinking</summary>
          <Markdown text={item.text} onOpenLink={onOpenLink} />
        </details>
      );
    case "tool":
      return call ? <ToolCard call={call} calls={calls} actions={actions} /> : null;
    case "notice":
      return (
        <div className={`notice notice-${item.tone}`} role={item.tone === "error" ? "alert" : "status"}>
          {item.text}
        </div>
      );
  }
});

export function Conversation({ items, calls, actions, onOpenLink }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const [shown, setShown] = useState(PAGE);
  const anchor = useRef<number | null>(null);
  const hidden = Math.max(0, items.length - shown);
  const showEarlier = () => {
    if (hidden === 0) return;
    anchor.current = scroller.current ? scroller.current.scrollHeight - scroller.current.scrollTop : null;
    setShown((n) => n + PAGE);
  };
  // After adding earlier entries, keep the entries that were on screen where they were.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && anchor.current !== null) {
      el.scrollTop = el.scrollHeight - anchor.current;
      anchor.current = null;
    }
  }, [shown]);
  useEffect(() => {
    const el = scroller.current;
    if (el && follow && anchor.current === null) el.scrollTop = el.scrollHeight;
  });
  return (
    <div
      className="conversation"
      ref={scroller}
      data-testid="conversation"
      onScroll={(e) => {
        const el = e.currentTarget;
        setFollow(el.scrollHeight - el.scrollTop - el.clientHeight < 80);
        if (el.scrollTop < 200) showEarlier();
      }}
    >
      {hidden > 0 && (
        <button className="ghost show-earlier" onClick={showEarlier}>
          Show {Math.min(PAGE, hidden)} earlier of {hidden}
        </button>
      )}
      {(hidden > 0 ? items.slice(hidden) : items).map((item) => (
        <div className="entry" key={item.id}>
          <Entry
            item={item}
            call={item.kind === "tool" ? calls[item.callId] : undefined}
            calls={item.kind === "tool" && calls[item.callId]?.children.length ? calls : undefined}
            actions={actions}
            onOpenLink={onOpenLink}
          />
        </div>
      ))}
    </div>
  );
}
