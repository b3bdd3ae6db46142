import type { ImageInput } from "../protocol/ImageInput";
import type { AttachmentView } from "../protocol/AttachmentView";
// The state the session reducer (state.ts) keeps: the conversation's items, its calls as cards
// show them, what waits, usage and the task's end.
import type { ApprovalMode } from "../protocol/ApprovalMode";
import type { CallImages } from "../protocol/CallImages";
import type { SandboxNote } from "../protocol/SandboxNote";
import type { RewindPlan } from "../protocol/RewindPlan";
import type { WorkspaceChange } from "../protocol/WorkspaceChange";
import type { UndoState } from "../protocol/UndoState";
import type { CallState } from "../protocol/CallState";
import type { FilePreview } from "../protocol/FilePreview";
import type { TaskEndReason } from "../protocol/TaskEndReason";
import type { ArgsView } from "../protocol/ArgsView";
import type { CallError } from "../protocol/CallError";
import type { CallDecision } from "../protocol/CallDecision";
import type { PrivateTarget } from "../protocol/PrivateTarget";
import type { ToolKind } from "../protocol/ToolKind";
import type { ToolStats } from "../protocol/ToolStats";
import type { HookRun } from "../protocol/HookRun";
import type { AgentSetting } from "../protocol/AgentSetting";
import type { SlashEntry } from "../protocol/SlashEntry";
import type { HooksView } from "../protocol/HooksView";
import type { SessionFileChange } from "../protocol/SessionFileChange";

/** The entries a rewind took back: from the user's message `from` to the entry `to` (item ids). */
export interface Rewind {
  from: number;
  to: number;
}

export interface PendingApproval {
  previewHash: string;
  reason: string;
  preview: FilePreview | null;
  /** The rule "Always allow" adds. */
  suggestedRule: string | null;
  /** No rule can allow the call (a command line that is more than plain commands). */
  noRule?: boolean;
  /** The fetch reaches this computer or a private network. */
  privateTarget?: PrivateTarget | null;
}

export interface CallView {
  id: string;
  name: string;
  /** What kind of work the tool does (its icon); the card never looks at the name. */
  kind: ToolKind;
  /** How the card shows the arguments. */
  view: ArgsView;
  /** What the call acts on, as the engine words it (`src/main.rs`). */
  title: string | null;
  /** What the call did, once done (`src/main.rs · lines 1–200 of 1,204` for a read). */
  summary: string | null;
  state: CallState;
  /** The arguments so far (complete once the call is past streaming). */
  args: unknown;
  preview: FilePreview | null;
  status: string | null;
  /** Live output (a command's stdout/stderr) for the user. */
  output: string;
  result: string | null;
  /** What the person decided that shaped how the call ended (from the engine, not its text). */
  decision: CallDecision | null;
  isError: boolean;
  /** What the user reads of a failure (the model got it as JSON in `result`). */
  error: CallError | null;
  /** Images the tool returned, for the user (the model got a note). */
  images: CallImages | null;
  approval: PendingApproval | null;
  /** Why an answer to the approval was refused (stale hash...). */
  refused: string | null;
  startedAt: number | null;
  endedAt: number | null;
  /** The `new_task` call whose sub-agent made this call; null for the session's own calls. */
  parentId: string | null;
  /** For a `new_task` call: what its sub-agent said and the calls it made, in order. */
  children: Item[];
  /** For a call that changed a file: whether the user can undo the change, or did. */
  undo: UndoState | null;
  /** Why the last undo of this call's change was refused (the file changed since...). */
  undoRefused: string | null;
  /** For a command: whether it runs in the sandbox, and what the sandbox refused. */
  sandbox: SandboxNote | null;
  /** For a command or an external tool: the files it changed in the workspace. */
  changes: WorkspaceChange[] | null;
  /** The hooks that ran for this call, in order (`PreToolUse`, `PostToolUse`...). */
  hooks: HookRun[];
}

export type Item =
  | { kind: "user"; id: number; text: string; attachments?: AttachmentView[] }
  | { kind: "assistant"; id: number; text: string }
  | { kind: "thinking"; id: number; text: string }
  | { kind: "tool"; id: number; callId: string }
  /** A hook that ran for no call (when a message was sent, when the agent stopped...). */
  | { kind: "hook"; id: number; run: HookRun }
  | {
      kind: "notice";
      id: number;
      tone: "info" | "error";
      text: string;
      /** An error the model got past once the user asked it to retry: no longer a failure. */
      recovered?: boolean;
    };

/** A message the user sent while a task ran, waiting for the model's next request. */
export interface QueuedMessage {
  id: number;
  text: string;
  /** Listed by the snapshot a reattached window got (not sent from this window). */
  fromSnapshot?: boolean;
  /** The user asked for it back (`withdraw_message`); the engine has not answered yet. */
  takingBack?: boolean;
}

export interface Todo {
  id: string;
  content: string;
  status: "pending" | "in_progress" | "completed";
}

export interface Usage {
  /** Tokens of the last request. */
  input: number;
  output: number;
  totalInput: number;
  totalOutput: number;
  /**
   * The engine's cost estimate in USD; "unknown" when a model of the session has no known price;
   * null until the engine reports one (a stored session that is not running).
   */
  cost: number | "unknown" | null;
  /** Tokens the last request sent (input and cache): how full the context is. */
  contextUsed: number;
  /** The model's context window; 0 until the engine reports it, and while it is not known. */
  contextWindow: number;
  /** Input tokens read from the provider's prompt cache in this session. */
  cacheRead: number;
  /** What the cache saved in USD at list prices; null when unknown. */
  cacheSaved: number | null;
}

export interface SessionState {
  lastSeq: number;
  /** Set when a seq gap was seen; the owner asks for a snapshot and clears it. */
  needsSnapshot: boolean;
  items: Item[];
  /**
   * The user's messages sent while a task ran, oldest first: shown apart until the engine
   * says each joined the conversation (`user_message_taken`), then placed where the model read
   * it, after what the task did before.
   */
  queued: QueuedMessage[];
  /**
   * Waiting messages given back (by the user's Stop, or one they took back; the model never
   * read them), for the composer: the latest returns, oldest first, each a new object, so the
   * composer puts in every one it has not put in yet, also when several arrive in one frame.
   */
  returned: { texts: string[]; images: ImageInput[] }[];
  calls: Record<string, CallView>;
  running: boolean;
  mode: ApprovalMode;
  /** The model the session's next request goes to, once the engine said (null before). */
  model: string | null;
  usage: Usage;
  todos: Todo[];
  /** How each tool's calls went in this session, by tool name. */
  toolStats: Record<string, ToolStats>;
  paused: { tool: string; message: string } | null;
  retrying: string | null;
  ended: TaskEndReason | null;
  /**
   * The notice that says why the last task ended, when the model may be run again from there
   * (`retry`: an error a new attempt may get past, or the iteration cap); null otherwise.
   */
  retryAt: number | null;
  /** The error notice the user asked to retry from, until the model answers again. */
  retriedNotice: number | null;
  nextId: number;
  ready: boolean;
  /** What a rewind the user asked for would change, while it waits for their confirmation. */
  rewindPlan: RewindPlan | null;
  /** The last thing done was a rewind, which can be undone (until the next task). */
  rewound: boolean;
  /**
   * What the rewinds of this window took back, oldest first: each from the user's message the
   * workspace went back to before, to the last entry then (item ids). An undone rewind's goes.
   * A session opened again does not know them: its transcript does not say.
   */
  rewinds: Rewind[];
  /**
   * The workspace's hooks that wait for the user's consent (none of them runs until it is
   * given), until they answer; null when none waits.
   */
  hookConsent: HooksView | null;
  /**
   * What the session changed in the workspace, as the engine last counted it (every file a
   * file tool, a command or an MCP tool touched that differs from the session's start); null
   * until it first counts.
   */
  workspaceChanges: SessionFileChange[] | null;
  /** The session's name, once its first message gave it (`session_titled`). */
  title: string | null;
  /** What the session's external agent offers beside the composer: its settings (model, its own mode, …). */
  agentSettings: AgentSetting[];
  /** The external agent's own `/` commands. */
  agentCommands: SlashEntry[];
}
