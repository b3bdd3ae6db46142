// The inbox, in the workspace's header: a button with the count of what needs the user across
// every open workspace's tasks, and a list of it (kind, task, what waits). In the list j/k or
// the arrows move, Enter opens the task, a approves when the item is an approval of the task
// shown (else it opens the task first, to see what it asks), Esc closes.
import { useEffect, useRef, useState } from "react";
import type { Backend } from "../../backend";
import type { InboxItem } from "../../protocol/InboxItem";
import { lookClass } from "../../components/stateLook";
import { usePopover } from "../../components/usePopover";
import { formatWhen } from "../../format";
import { useNow } from "../../useNow";
import { inboxKey, itemKey, keepSelection, kindLook } from "./inboxModel";
import { useInbox } from "./useInbox";
import type { ApproveResult } from "../workspace/useApproveShortcut";
import { isApple, shortcutKey } from "../../platform";

interface Props {
  backend: Backend;
  /** This window's workspace. */
  workspace: string;
  /** The session shown. */
  current: string | null;
  /** Read again when this changes (the session list was read again). */
  readAgain: unknown;
  /** Shows the session `taskId` of this workspace. */
  onOpen(taskId: string): void;
  /** Approves the shown session's only waiting request, as its card shows it. */
  onApprove(): ApproveResult;
}

export function InboxButton({ backend, workspace, current, readAgain, onOpen, onApprove }: Props) {
  const { open, setOpen, box } = usePopover();
  const { items, error, refresh } = useInbox(backend, open, readAgain);
  const [selected, setSelected] = useState(-1);
  const now = useNow();
  const [said, setSaid] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const shown = useRef<InboxItem[]>([]);
  const button = useRef<HTMLButtonElement>(null);

  // Ctrl+I (Cmd+I on a Mac) opens it from anywhere in the window, its first item chosen.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!shortcutKey(e) || !(e.key.toLowerCase() === "i" || e.code === "KeyI")) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [setOpen]);

  // The chosen item stays chosen as the list is read again.
  useEffect(() => {
    const before = shown.current;
    shown.current = items;
    setSelected((index) => keepSelection(before[index], index, items));
  }, [items]);

  useEffect(() => {
    if (!open) return;
    setSaid(null);
    setSelected((i) => (i < 0 && shown.current.length > 0 ? 0 : i));
    list.current?.focus();
    // Only as it opens: the items it then has are read by the updater.
  }, [open]);

  useEffect(() => {
    if (selected < 0) return;
    document.getElementById(`inbox-item-${selected}`)?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);

  const openItem = (item: InboxItem) => {
    if (item.workspace_path === workspace) {
      onOpen(item.task_id);
    } else {
      // Another window shows that folder: bring it to the front.
      backend.openInNewWindow(item.workspace_path).catch(() => {});
    }
  };

  const approve = (item: InboxItem) => {
    if (item.kind !== "approval") {
      setSaid(`${item.task_name} has nothing to approve: press Enter to open it.`);
      return;
    }
    if (item.workspace_path !== workspace || item.task_id !== current) {
      openItem(item);
      setSaid(`Opened ${item.task_name}: look at what it asks, then press a again to approve it.`);
      return;
    }
    const result = onApprove();
    if (result === "approved") {
      setSaid(`Approved ${item.task_name}'s request.`);
      refresh();
    } else if (result === "several") {
      setSaid(`Several requests of ${item.task_name} wait: approve each on its card.`);
    } else if (result === "unticked") {
      setSaid(`Every part of ${item.task_name}'s request is unticked: tick what to approve on its card.`);
    } else {
      setSaid(`Nothing of ${item.task_name} waits for approval yet: it may still be loading.`);
    }
  };

  const count = items.length;
  const needs = count === 0 ? "Nothing needs you" : count === 1 ? "1 thing needs you" : `${count} things need you`;
  const tip = `${needs} (${isApple(navigator.userAgent) ? "⌘I" : "Ctrl+I"})`;
  return (
    <div className="inbox" ref={box}>
      <button
        ref={button}
        type="button"
        className={open ? "ghost inbox-button open" : "ghost inbox-button"}
        data-testid="inbox-button"
        aria-label="Inbox"
        aria-expanded={open}
        aria-describedby="inbox-count"
        title={tip}
        aria-keyshortcuts={isApple(navigator.userAgent) ? "Meta+I" : "Control+I"}
        onClick={() => setOpen((o) => !o)}
      >
        Inbox
        <span
          id="inbox-count"
          className={count > 0 ? "inbox-count look-needs-you" : "inbox-count empty"}
          data-testid="inbox-count"
          aria-label={needs}
        >
          {count}
        </span>
      </button>
      {open && (
        <div className="inbox-panel" role="dialog" aria-label="Inbox" data-testid="inbox-panel">
          <p className="muted small inbox-keys">
            <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>a</kbd> approve · <kbd>Esc</kbd> close
          </p>
          {error && (
            <p className="error-text" role="alert">
              {error}
            </p>
          )}
          {count === 0 && !error && <p className="muted inbox-empty">Nothing needs you now.</p>}
          <ul
            ref={list}
            className="inbox-list"
            role="listbox"
            tabIndex={0}
            aria-label="What needs you"
            aria-activedescendant={selected >= 0 ? `inbox-item-${selected}` : undefined}
            onKeyDown={(e) => {
              if (e.ctrlKey || e.metaKey || e.altKey) return;
              const action = inboxKey(e.key, selected, count);
              if (!action) return;
              e.preventDefault();
              const item = items[selected];
              if (action.kind === "close") {
                setOpen(false);
                button.current?.focus();
              } else if (action.kind === "select") {
                setSelected(action.index);
              } else if (item && action.kind === "open") {
                openItem(item);
                setOpen(false);
              } else if (item && action.kind === "approve") {
                approve(item);
              }
            }}
          >
            {items.map((item, i) => {
              const kind = kindLook(item.kind);
              return (
                <li
                  key={itemKey(item)}
                  id={`inbox-item-${i}`}
                  role="option"
                  aria-selected={i === selected}
                  className={i === selected ? "inbox-item selected" : "inbox-item"}
                  data-testid="inbox-item"
                  data-kind={item.kind}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => {
                    setSelected(i);
                    openItem(item);
                    setOpen(false);
                  }}
                >
                  <span className={`inbox-kind ${lookClass(kind.look)}`} title={kind.label} aria-hidden="true">
                    {kind.icon}
                  </span>
                  <span className="inbox-text">
                    <span className="inbox-title">
                      <span className="visually-hidden">{kind.label}: </span>
                      <strong>{item.task_name}</strong>
                      {item.workspace_path !== workspace && (
                        <span className="muted small"> in {item.workspace_path.split(/[/\\]/).filter(Boolean).pop()}</span>
                      )}
                    </span>
                    <span className="inbox-detail muted">{item.detail}</span>
                  </span>
                  <span className="muted small inbox-when">{formatWhen(item.at, now)}</span>
                </li>
              );
            })}
          </ul>
          {said && (
            <p className="small inbox-said" role="status" data-testid="inbox-said">
              {said}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
