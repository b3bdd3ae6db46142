// Where the user writes: Enter sends, Shift+Enter breaks the line, Up recalls earlier messages,
// `@` completes workspace file names, `/` at the start lists commands, skills and built-ins
// (slash.ts; a built-in of the window runs there instead of being sent). Each `@path` in the text (`@src/a.rs`, `@src/a.rs:10-40`,
// `@src/`) and each image pasted or dropped is attached, shown as a chip that can be removed
// before sending (see attachments.ts). What is written and not sent yet is kept per
// conversation (see session/drafts.ts); images are not kept with the draft. While a task runs,
// Stop (or Esc in the message box) takes Send's place, and Queue sends a message for the
// agent's next step.
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from "react";
import type { AttachInput } from "../protocol/AttachInput";
import type { ImageInput } from "../protocol/ImageInput";
import type { SlashCatalog } from "../protocol/SlashCatalog";
import type { SlashEntry } from "../protocol/SlashEntry";
import { loadDraft, saveDraft } from "../session/drafts";
import { ComposerChips } from "./AttachmentChips";
import { attachInputs, imageFromFile, mentionsIn, withoutMention } from "./attachments";
import { CompletionMenu, menuKey, type MenuOption } from "./CompletionMenu";
import {
  awaitingArguments,
  KIND_HEADINGS,
  slashAt,
  slashOptions,
  windowBuiltIn,
  withSlashName,
  withAgentCommands,
  withWindowBuiltIns,
} from "./slash";

const NO_COMMANDS: readonly SlashEntry[] = [];

/** Where the `/` menu's entries come from, and who runs the window's built-ins. */
export interface SlashSource {
  /** The workspace's commands and skills (and the engine's built-ins), asked each time the menu opens. */
  load(): Promise<SlashCatalog>;
  /** Runs the window's built-in `name` (`compact`, `clear`, `model`). */
  runBuiltIn(name: string): void;
}

interface Props {
  /** Where this conversation's unsent text is kept ([`draftKey`](../session/drafts.ts)). */
  draftKey: string;
  disabled: boolean;
  running: boolean;
  history: string[];
  findFiles(query: string): Promise<string[]>;
  onSend(text: string, attach: AttachInput[]): Promise<void> | void;
  /**
   * Messages given back to the user (their Stop returned what waited for the agent, or they
   * took one back): each object's put before the text being written, once, with its images.
   */
  restore?: readonly { texts: string[]; images?: ImageInput[] }[];
  /** Lets the window put the focus in the message box (after a button it showed goes away). */
  focusRef?: Ref<ComposerFocus>;
  /** Stops the running task (the Stop button, Esc in the message box). */
  onStop?(): void;
  /** Why sending is not possible, when `disabled` (the disabled button's tooltip). */
  disabledWhy?: string;
  /** Controls shown beside the message box (the approval mode). */
  controls?: ReactNode;
  /** The `/` menu; without it `/` is plain text. */
  slash?: SlashSource;
  /** The external agent's own commands, first in the `/` menu and sent to it as typed. */
  agentCommands?: readonly SlashEntry[];
}

/** What [`Props.focusRef`] gives. */
export interface ComposerFocus {
  focus(): void;
}

/** A `/` menu entry: `/name [hint]` and what it does; its file in the tooltip. */
function slashOption(entry: SlashEntry): MenuOption {
  return {
    key: `${entry.kind}:${entry.name}`,
    group: KIND_HEADINGS[entry.kind],
    title: entry.source ? `From ${entry.source}` : "Built into Foreman",
    label: (
      <>
        <span className="slash-name">/{entry.name}</span>
        {entry.argument_hint && <span className="slash-hint">{entry.argument_hint}</span>}
        <span className="slash-description">{entry.description}</span>
      </>
    ),
  };
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

export function Composer({
  draftKey,
  disabled,
  running,
  history,
  findFiles,
  onSend,
  restore,
  focusRef,
  onStop,
  disabledWhy,
  controls,
  slash,
  agentCommands,
}: Props) {
  // The text belongs to the conversation it was written in; another conversation shows its own.
  const [draft, setDraft] = useState(() => ({ key: draftKey, text: loadDraft(draftKey) }));
  const [recall, setRecall] = useState<number | null>(null);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [slashQuery, setSlashQuery] = useState<string | null>(null);
  const [slashEntries, setSlashEntries] = useState<SlashEntry[]>(() => withWindowBuiltIns([]));
  if (draft.key !== draftKey) {
    setDraft({ key: draftKey, text: loadDraft(draftKey) });
    setRecall(null);
    setMention(null);
    setSlashQuery(null);
  }
  const text = draft.key === draftKey ? draft.text : "";
  const setText = useCallback((next: string) => setDraft({ key: draftKey, text: next }), [draftKey]);
  useEffect(() => saveDraft(draft.key, draft.text), [draft]);
  const [options, setOptions] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  const [images, setImages] = useState<ImageInput[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(focusRef, () => ({ focus: () => area.current?.focus() }), []);
  // What came back comes first: it was written before the text being written now.
  useEffect(() => {
    const fresh = (restore ?? []).filter((r) => !restored.has(r));
    if (fresh.length === 0) return;
    for (const r of fresh) restored.add(r);
    const back = fresh.flatMap((r) => r.texts).join("\n\n");
    const backImages = fresh.flatMap((r) => r.images ?? []);
    if (backImages.length > 0) setImages((now) => [...backImages, ...now]);
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

  // The catalog is read again each time the menu opens: a command written meanwhile shows.
  const slashOpen = slash !== undefined && slashQuery !== null;
  const loadSlash = slash?.load;
  useEffect(() => {
    if (!slashOpen || !loadSlash) return;
    let stale = false;
    loadSlash().then(
      (catalog) => !stale && setSlashEntries(withWindowBuiltIns(catalog.entries)),
      () => {},
    );
    return () => {
      stale = true;
    };
  }, [slashOpen, loadSlash]);
  const agentOwn = agentCommands ?? NO_COMMANDS;
  const menuEntries = useMemo(() => withAgentCommands(slashEntries, agentOwn), [slashEntries, agentOwn]);
  const slashShown = slashOpen ? slashOptions(menuEntries, slashQuery ?? "") : [];

  const pickSlash = (entry: SlashEntry) => {
    const next = withSlashName(text, entry.name);
    setText(next);
    setSlashQuery(null);
    requestAnimationFrame(() => {
      const pos = entry.name.length + 2;
      area.current?.setSelectionRange(pos, pos);
    });
  };

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
    if ((!trimmed && images.length === 0) || disabled) return;
    const builtIn = slash && images.length === 0 ? windowBuiltIn(trimmed, agentOwn) : null;
    if (builtIn && slash) {
      setText("");
      setSlashQuery(null);
      slash.runBuiltIn(builtIn);
      return;
    }
    const sentImages = images;
    setText("");
    setImages([]);
    setProblem(null);
    setRecall(null);
    setMention(null);
    setSlashQuery(null);
    try {
      await onSend(trimmed, attachInputs(trimmed, sentImages));
    } catch {
      setText(trimmed);
      setImages(sentImages);
    }
  };

  /** Adds the image files among `files`; says why one cannot be added. */
  const addImages = (files: File[], dropped: boolean) => {
    const wanted = files.filter((f) => f.type.startsWith("image/") || dropped);
    if (wanted.length === 0) return false;
    setProblem(null);
    for (const file of wanted) {
      if (!file.type.startsWith("image/")) {
        setProblem(`${file.name} is not an image. To attach a workspace file, mention it with @.`);
        continue;
      }
      imageFromFile(file).then(
        (image) => setImages((now) => [...now, image]),
        (e: unknown) => setProblem(e instanceof Error ? e.message : String(e)),
      );
    }
    return true;
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (addImages(Array.from(e.clipboardData.files), false)) e.preventDefault();
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    const files = Array.from(e.dataTransfer.files);
    if (files.length === 0) return;
    e.preventDefault();
    addImages(files, true);
  };

  // The open menu, if any: the `/` one at the start of the message, else the `@` one.
  const menu =
    slashShown.length > 0
      ? { count: slashShown.length, pick: (i: number) => slashShown[i] && pickSlash(slashShown[i]), close: () => setSlashQuery(null) }
      : options.length > 0 && mention
        ? { count: options.length, pick: (i: number) => options[i] !== undefined && pick(options[i]), close: () => setMention(null) }
        : null;

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const key = menu && !e.nativeEvent.isComposing ? menuKey(e.key, Math.min(active, menu.count - 1), menu.count) : null;
    if (menu && key) {
      e.preventDefault();
      if (key === "pick") menu.pick(Math.min(active, menu.count - 1));
      else if (key === "close") menu.close();
      else setActive(key.move);
      return;
    }
    if (e.key === "Escape" && running && onStop) {
      e.preventDefault();
      onStop();
    } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
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

  const mentions = mentionsIn(text);
  const hinted = slash ? awaitingArguments(text, menuEntries) : null;
  const empty = !text.trim() && images.length === 0;
  return (
    <div className="composer" data-testid="composer-area" onDrop={onDrop} onDragOver={(e) => e.preventDefault()}>
      <ComposerChips
        mentions={mentions}
        images={images}
        onRemoveMention={(path) => setText(withoutMention(text, path))}
        onRemoveImage={(index) => setImages((now) => now.filter((_, i) => i !== index))}
      />
      {problem && (
        <div className="composer-problem" role="alert" data-testid="composer-problem">
          {problem}
        </div>
      )}
      {slashShown.length > 0 ? (
        <CompletionMenu
          label="Commands and skills"
          className="slash-menu"
          options={slashShown.map(slashOption)}
          active={Math.min(active, slashShown.length - 1)}
          onPick={(i) => menu?.pick(i)}
        />
      ) : (
        mention && (
          <CompletionMenu
            label="Workspace files"
            options={options.map((path) => ({ key: path, label: path }))}
            active={active}
            onPick={(i) => menu?.pick(i)}
          />
        )
      )}
      {hinted && (
        <div className="composer-hint muted small" data-testid="slash-hint">
          /{hinted.name} <span className="slash-hint">{hinted.argument_hint}</span>
        </div>
      )}
      <textarea
        ref={area}
        data-testid="composer"
        aria-label="Message to the agent"
        placeholder={
          running ? "The agent is working… you can write your next message" : "Ask the agent to do something. @ attaches a file; paste or drop images."
        }
        value={text}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        onChange={(e) => {
          setText(e.target.value);
          setRecall(null);
          const caret = e.target.selectionStart ?? e.target.value.length;
          setMention(mentionAt(e.target.value, caret));
          const typed = slash ? slashAt(e.target.value, caret) : null;
          if (typed?.query !== slashQuery) setActive(0);
          setSlashQuery(typed ? typed.query : null);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      <div className="composer-buttons">
        {running ? (
          <>
            <button
              className="queue send"
              data-testid="send"
              disabled={disabled || empty}
              title={
                disabled
                  ? disabledWhy
                  : empty
                    ? "Write a message to queue it for the agent's next step"
                    : "The agent reads it before its next step"
              }
              onClick={() => void send()}
            >
              Queue
            </button>
            {onStop && (
              <button className="stop" data-testid="stop" title="Stop the agent (Esc in the message box)" onClick={onStop}>
                Stop<span className="keycap">Esc</span>
              </button>
            )}
          </>
        ) : (
          <button
            className="primary send"
            data-testid="send"
            disabled={disabled || empty}
            title={disabled ? disabledWhy : empty ? "Write a message first" : undefined}
            onClick={() => void send()}
          >
            Send
          </button>
        )}
      </div>
      {controls}
    </div>
  );
}
