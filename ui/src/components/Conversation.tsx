// The conversation: messages and tool cards in order. Off-screen entries are skipped by the
// browser's renderer (content-visibility), so long sessions stay cheap to show and scroll; the
// view follows new output unless the person scrolled up.
import { memo, useEffect, useRef, useState } from "react";
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
  actions,
  onOpenLink,
}: {
  item: Item;
  call: CallView | undefined;
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
      return call ? <ToolCard call={call} actions={actions} /> : null;
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
  useEffect(() => {
    const el = scroller.current;
    if (el && follow) el.scrollTop = el.scrollHeight;
  });
  return (
    <div
      className="conversation"
      ref={scroller}
      data-testid="conversation"
      onScroll={(e) => {
        const el = e.currentTarget;
        setFollow(el.scrollHeight - el.scrollTop - el.clientHeight < 80);
      }}
    >
      {items.map((item) => (
        <div className="entry" key={item.id}>
          <Entry
            item={item}
            call={item.kind === "tool" ? calls[item.callId] : undefined}
            actions={actions}
            onOpenLink={onOpenLink}
          />
        </div>
      ))}
    </div>
  );
}
