// The menu that completes what is typed in the composer (`@` workspace files, `/` commands): a
// list above the message box that the keyboard drives while the focus stays in the box: ↑/↓
// move, Enter or Tab picks, Esc closes. A mouse pick does not take the focus from the box.
import type { ReactNode } from "react";

export interface MenuOption {
  key: string;
  /** What the option shows. */
  label: ReactNode;
  /** Its tooltip. */
  title?: string;
  /** The heading it goes under; a heading is shown where the group changes. */
  group?: string;
}

/** What a key does to an open menu of `count` options whose `active` one is marked. */
export type MenuKey = { move: number } | "pick" | "close" | null;

/** What `key` does in an open menu; null: the key is the message box's. */
export function menuKey(key: string, active: number, count: number): MenuKey {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return { move: (active + 1) % count };
    case "ArrowUp":
      return { move: (active - 1 + count) % count };
    case "Enter":
    case "Tab":
      return "pick";
    case "Escape":
      return "close";
    default:
      return null;
  }
}

interface Props {
  label: string;
  options: MenuOption[];
  active: number;
  onPick(index: number): void;
  className?: string;
}

export function CompletionMenu({ label, options, active, onPick, className }: Props) {
  if (options.length === 0) return null;
  return (
    <ul className={className ? `mentions ${className}` : "mentions"} role="listbox" aria-label={label}>
      {options.flatMap((option, i) => {
        const heading =
          option.group && option.group !== options[i - 1]?.group ? (
            <li key={`group-${option.group}`} role="presentation" className="slash-group">
              {option.group}
            </li>
          ) : null;
        const row = (
          <li
            key={option.key}
            role="option"
            aria-selected={i === active}
            className={i === active ? "active" : ""}
            title={option.title}
            ref={i === active ? (el) => el?.scrollIntoView?.({ block: "nearest" }) : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(i);
            }}
          >
            {option.label}
          </li>
        );
        return heading ? [heading, row] : [row];
      })}
    </ul>
  );
}
