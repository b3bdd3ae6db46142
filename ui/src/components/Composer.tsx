// Where the user writes: Enter sends, Shift+Enter breaks the line, Up recalls earlier messages,
// `@` completes workspace file names (sent as references with the message). What is written and
// not sent yet is kept per conversation (see session/drafts.ts).
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from "react";
import { loadDraft, saveDraft } from "../session/drafts";

interface Props {
  /** Where this conversation's unsent text is kept ([`draftKey`](../session/drafts.ts)). */
  draftKey: string;
  disabled: boolean;
  running: boolean;
  history: string[];
  findFiles(query: string): Promise<string[]>;
  onSend(text: string): Promise<void> | void;
  /**
   * Messages given back to the user (their Stop returned what waited for the agent, or they
   * took one back): each object's put before the text being written, once.
   */
  restore?: readonly { texts: string[] }[];
  /** Lets the window put the focus in the message box (after a button it showed goes away). */
  focusRef?: Ref<ComposerFocus>;
}

/** What [`Props.focusRef`] gives. */
export interface ComposerFocus {
  focus(): void;
}

/** The restores already put into a composer (one drawn anew must not add them again). */
const restored = new WeakSet<object>();

/** The `@word` being typed just before the caret, if any. */
function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return null;
  const query = m[2] ?? "";
  return { start: caret - query.length - 1, query };
}

/** The message with the files it mentions listed, so the agent knows they are references. */
export function withReferences(text: string): string {
  const files = Array.from(new Set(Array.from(text.matchAll(/(?:^|\s)@([^\s@]+)/g), (m) => m[1] ?? "")));
  if (files.length === 0) return text;
  return `${text}\n\nReferenced files: ${files.join(", ")}`;
}

/** `text` without the list [`withReferences`] added to it, when it has that list. */
export function withoutReferences(text: string): string {
  const at = text.lastIndexOf("\n\nReferenced files: ");
  if (at < 0) return text;
  const body = text.slice(0, at);
  return withReferences(body) === text ? body : text;
}

export function Composer({ draftKey, disabled, running, history, findFiles, onSend, restore, focusRef }: Props) {
  // The text belongs to the conversation it was written in; another conversation shows its own.
  const [draft, setDraft] = useState(() => ({ key: draftKey, text: loadDraft(draftKey) }));
  const [recall, setRecall] = useState<number | null>(null);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  if (draft.key !== draftKey) {
    setDraft({ key: draftKey, text: loadDraft(draftKey) });
    setRecall(null);
    setMention(null);
  }
  const text = draft.key === draftKey ? draft.text : "";
  const setText = useCallback((next: string) => setDraft({ key: draftKey, text: next }), [draftKey]);
  useEffect(() => saveDraft(draft.key, draft.text), [draft]);
  const [options, setOptions] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(focusRef, () => ({ focus: () => area.current?.focus() }), []);
  // What came back comes first: it was written before the text being written now.
  useEffect(() => {
    const fresh = (restore ?? []).filter((r) => !restored.has(r));
    if (fresh.length === 0) return;
    for (const r of fresh) restored.add(r);
    const back = fresh
      .flatMap((r) => r.texts)
      .map(withoutReferences)
      .join("\n\n");
    setDraft((d) => ({ key: draftKey, text: d.key === draftKey && d.text.trim() ? `${back}\n\n${d.text}` : back }));
    setRecall(null);
    setMention(null);
    area.current?.focus();
  }, [restore, draftKey]);

  useEffect(() => {
    if (!mention) {
      setOptions([]);
      return;
    }
    let stale = false;
    findFiles(mention.query).then(
      (found) => {
        if (!stale) {
          setOptions(found.slice(0, 8));
          setActive(0);
        }
      },
      () => !stale && setOptions([]),
    );
    return () => {
      stale = true;
    };
  }, [mention, findFiles]);

  const pick = (path: string) => {
    if (!mention) return;
    const caret = area.current?.selectionStart ?? text.length;
    const next = `${text.slice(0, mention.start)}@${path} ${text.slice(caret)}`;
    setText(next);
    setMention(null);
    requestAnimationFrame(() => {
      const pos = mention.start + path.length + 2;
      area.current?.setSelectionRange(pos, pos);
    });
  };

  const send = async () => {
    const trimmed = text.trim();
    if (!trimmed || disabled) return;
    setText("");
    setRecall(null);
    setMention(null);
    try {
      await onSend(withReferences(trimmed));
    } catch {
      setText(trimmed);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (options.length > 0 && mention) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActive((a) => (a + step + options.length) % options.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        const chosen = options[active];
        if (chosen) pick(chosen);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setMention(null);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    } else if (e.key === "ArrowUp" && history.length > 0 && (text === "" || recall !== null)) {
      e.preventDefault();
      const index = recall === null ? history.length - 1 : Math.max(0, recall - 1);
      setRecall(index);
      setText(history[index] ?? "");
    } else if (e.key === "ArrowDown" && recall !== null) {
      e.preventDefault();
      const index = recall + 1;
      if (index >= history.length) {
        setRecall(null);
        setText("");
      } else {
        setRecall(index);
        setText(history[index] ?? "");
      }
    }
  };

  return (
    <div className="composer">
      {options.length > 0 && mention && (
        <ul className="mentions" role="listbox" aria-label="Workspace files">
          {options.map((path, i) => (
            <li
              key={path}
              role="option"
              aria-selected={i === active}
              className={i === active ? "active" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(path);
              }}
            >
              {path}
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={area}
        data-testid="composer"
        aria-label="Message to the agent"
        placeholder={running ? "The agent is working… you can write your next message" : "Ask the agent to do something. @ adds a file."}
        value={text}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        onChange={(e) => {
          setText(e.target.value);
          setRecall(null);
          setMention(mentionAt(e.target.value, e.target.selectionStart ?? e.target.value.length));
        }}
        onKeyDown={onKeyDown}
      />
      <button
        className="primary send"
        data-testid="send"
        disabled={disabled || !text.trim()}
        title={running ? "The agent reads it before its next step" : undefined}
        onClick={() => void send()}
      >
        {running ? "Queue" : "Send"}
      </button>
    </div>
  );
}
