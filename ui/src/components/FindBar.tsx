// The find bar over the conversation (Ctrl/Cmd+F): what to look for, which of the entries that
// hold it is shown, and the way to the previous and next one. Enter goes to the next (older to
// newer, round to the first), Shift+Enter to the previous, Esc (anywhere in the bar) closes.
import type { RefObject } from "react";

interface Props {
  inputRef: RefObject<HTMLInputElement | null>;
  query: string;
  /** 1-based place of the entry shown among those found; 0 when none is. */
  position: number;
  count: number;
  onQuery(query: string): void;
  onNext(): void;
  onPrevious(): void;
  onClose(): void;
}

export function FindBar({ inputRef, query, position, count, onQuery, onNext, onPrevious, onClose }: Props) {
  const status = query === "" ? "" : count === 0 ? "No matches" : `${position} of ${count}`;
  return (
    <div
      className="find-bar"
      role="search"
      data-testid="find-bar"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <input
        ref={inputRef}
        type="text"
        aria-label="Find in this conversation"
        placeholder="Find in this conversation"
        data-testid="find-input"
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter" || e.nativeEvent.isComposing) return;
          e.preventDefault();
          if (e.shiftKey) onPrevious();
          else onNext();
        }}
      />
      <span className="find-count muted" data-testid="find-count" aria-live="polite">
        {status}
      </span>
      <button type="button" className="ghost" aria-label="Previous match" disabled={count === 0} onClick={onPrevious}>
        ↑
      </button>
      <button type="button" className="ghost" aria-label="Next match" disabled={count === 0} onClick={onNext}>
        ↓
      </button>
      <button type="button" className="ghost" aria-label="Close find" onClick={onClose}>
        ✕
      </button>
    </div>
  );
}
