// One entry of the conversation: a message, a tool card, a notice or a hook of no call.
import { memo } from "react";
import type { CallView, Item } from "../session/state";
import { HookLine } from "./HookLine";
import { Markdown } from "./Markdown";
import { Notice, type RetryOffer } from "./Notice";
import { ToolCard, type CardActions } from "./ToolCard";
import { UserMessage } from "./UserMessage";

export type { RetryOffer } from "./Notice";

/** One entry of the conversation: a message, a tool card or a notice. */
export const Entry = memo(function Entry({
  item,
  call,
  calls,
  actions,
  onOpenLink,
  undoAfter = 0,
  onUndoAfter,
  onBranch,
  onRewind,
  retry,
  latest = false,
  found = false,
  rewound = false,
}: {
  item: Item;
  call: CallView | undefined;
  /** Every call, only for a card with a sub-agent's calls nested in it. */
  calls: Record<string, CallView> | undefined;
  actions: CardActions;
  onOpenLink(url: string): void;
  /** For a message of the user: how many file changes after it can be undone. */
  undoAfter?: number;
  /** Undoes them (by the message's item id). */
  onUndoAfter?(id: number): void;
  /** For a message of the user: edits it in a branch (by the message's item id). */
  onBranch?(id: number): void;
  /** For a message of the user: rewinds the workspace to before it (by its item id). */
  onRewind?(id: number): void;
  /** For the notice of a task's end: runs the model again. */
  retry?: RetryOffer;
  /** Nothing comes after this entry yet. */
  latest?: boolean;
  /** The find bar shows this entry. */
  found?: boolean;
  /** A rewind took this entry back: a change in it looks rewound. */
  rewound?: boolean;
}) {
  switch (item.kind) {
    case "user":
      return (
        <UserMessage
          text={item.text}
          attachments={item.attachments}
          undoAfter={undoAfter}
          onUndoAfter={onUndoAfter && (() => onUndoAfter(item.id))}
          onBranch={onBranch && (() => onBranch(item.id))}
          onRewind={onRewind && (() => onRewind(item.id))}
        />
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
      return call ? <ToolCard call={call} calls={calls} actions={actions} latest={latest} found={found} rewound={rewound} /> : null;
    case "hook":
      return <HookLine run={item.run} standalone />;
    case "notice":
      return <Notice id={item.id} tone={item.tone} text={item.text} recovered={item.recovered} retry={retry} />;
  }
});
