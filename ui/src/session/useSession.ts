// Connects a conversation to its engine session: events are queued as they arrive and applied
// once per animation frame (so a fast stream costs one render per frame, not one per event).
import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { ApprovalMode } from "../protocol/ApprovalMode";
import type { AttachInput } from "../protocol/AttachInput";
import type { Event } from "../protocol/Event";
import type { Op } from "../protocol/Op";
import {
  addUserMessage,
  answerHookConsent,
  fromTranscript,
  initialState,
  markTakingBack,
  reduceAll,
  startRetry,
  withoutUserMessage,
  type QueuedMessage,
  type SessionState,
} from "./state";
import { nextFrame } from "../nextFrame";

export interface SessionHandle {
  state: SessionState;
  sessionId: string | null;
  model: string;
  provider: string;
  error: string | null;
  /**
   * Why the shown stored session is not running (the model is not set up); sending starts it
   * once it is. Not an error of anything the user did.
   */
  stopped: string | null;
  /** Sends the user's message, starting the session first if needed. */
  send(text: string): Promise<void>;
  op(op: Op): Promise<void>;
  /** Asks for the waiting message `message`, the `index`-th, back into the message box. */
  takeBack(index: number, message: QueuedMessage): Promise<void>;
  /** Runs the model again after a task that ended with an error it may get past (`retryAt`). */
  retry(): Promise<void>;
  /**
   * Answers the prompt for the workspace's hooks: allows the set pinned by `hash`, or (null)
   * leaves them off for now. The prompt goes either way.
   */
  answerHooks(hash: string | null): Promise<void>;
  clearError(): void;
}


export function useSession(
  backend: Backend,
  workspace: string,
  resume: string | null,
  defaultMode: ApprovalMode,
  onStarted: (sessionId: string) => void,
): SessionHandle {
  const [state, setState] = useState<SessionState>(() => initialState(defaultMode));
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [meta, setMeta] = useState({ model: "", provider: "" });
  const [error, setError] = useState<string | null>(null);
  const [stopped, setStopped] = useState<string | null>(null);
  const queue = useRef<Event[]>([]);
  const scheduled = useRef(false);
  const idRef = useRef<string | null>(null);
  const generation = useRef(0);
  // Closed while a stored session's transcript loads, so its first events apply after it.
  const gate = useRef(true);
  // A stored session shown without its engine (see OpenedSession.stopped).
  const stoppedId = useRef<string | null>(null);
  // Read when a session opens; a settings change must not reset the open conversation.
  const modeRef = useRef(defaultMode);
  modeRef.current = defaultMode;

  const flush = useCallback(() => {
    scheduled.current = false;
    if (!gate.current) return;
    const batch = queue.current;
    if (batch.length === 0) return;
    queue.current = [];
    setState((s) => reduceAll(s, batch, Date.now()));
  }, []);

  const connect = useCallback(
    async (resumeId: string | null) => {
      const mine = ++generation.current;
      gate.current = resumeId === null;
      const onEvent = (event: Event) => {
        if (mine !== generation.current) return;
        queue.current.push(event);
        if (!scheduled.current) {
          scheduled.current = true;
          nextFrame(flush);
        }
      };
      const opened = await backend.openSession(workspace, resumeId, onEvent);
      if (mine !== generation.current) return opened.session_id;
      // Not running (no model set up): show it, and start it when the user sends.
      idRef.current = opened.stopped ? null : opened.session_id;
      stoppedId.current = opened.stopped ? opened.session_id : null;
      setStopped(opened.stopped);
      setSessionId(opened.session_id);
      setMeta({ model: opened.model, provider: opened.provider });
      if (resumeId) {
        setState(fromTranscript(opened.transcript, modeRef.current));
        gate.current = true;
        if (queue.current.length > 0 && !scheduled.current) {
          scheduled.current = true;
          nextFrame(flush);
        }
      }
      return opened.session_id;
    },
    [backend, workspace, flush],
  );

  // A stored session is opened (and its engine started) as soon as it is shown.
  useEffect(() => {
    // The session this hook just started became current: it is already connected.
    if (resume !== null && resume === idRef.current) return;
    generation.current += 1;
    queue.current = [];
    idRef.current = null;
    stoppedId.current = null;
    setSessionId(null);
    setError(null);
    setStopped(null);
    setState(initialState(modeRef.current));
    if (resume) {
      connect(resume).catch((e: unknown) => setError(errorMessage(e)));
    } else {
      // A new conversation has no session until its first message; the shell must not reopen
      // the one shown before if the page is loaded again. Nothing is lost if this fails.
      backend.showNewSession().catch(() => {});
    }
  }, [resume, connect, backend]);

  // A seq gap: ask the engine for its full state.
  useEffect(() => {
    if (state.needsSnapshot && idRef.current) {
      backend.sendOp(idRef.current, { op: "snapshot" }).catch(() => {});
    }
  }, [state.needsSnapshot, backend]);

  const op = useCallback(
    async (o: Op) => {
      if (!idRef.current) return;
      try {
        await backend.sendOp(idRef.current, o);
      } catch (e) {
        setError(errorMessage(e));
      }
    },
    [backend],
  );

  const send = useCallback(
    async (text: string, attach: AttachInput[] = []) => {
      setError(null);
      try {
        const existing = idRef.current;
        const restart = stoppedId.current;
        const id: string = existing ?? (await connect(restart));
        if (!idRef.current) throw { message: "The model is not set up yet. Open Settings." };
        if (!existing && !restart) onStarted(id);
        setState((s) => addUserMessage(s, text));
        try {
          await backend.sendOp(id, attach.length > 0 ? { op: "user_message", text, attach } : { op: "user_message", text });
        } catch (e) {
          // The composer gets the text back; it must not also show as sent or waiting.
          setState((s) => withoutUserMessage(s, text));
          throw e;
        }
      } catch (e) {
        setError(errorMessage(e));
        throw e;
      }
    },
    [backend, connect, onStarted],
  );

  const takeBack = useCallback(
    async (index: number, message: QueuedMessage) => {
      if (!idRef.current) return;
      setState((s) => markTakingBack(s, message.id, true));
      try {
        await backend.sendOp(idRef.current, { op: "withdraw_message", index, text: message.text });
      } catch (e) {
        setState((s) => markTakingBack(s, message.id, false));
        setError(errorMessage(e));
      }
    },
    [backend],
  );

  const retry = useCallback(async () => {
    const id = idRef.current;
    if (!id) return;
    setState(startRetry);
    try {
      await backend.sendOp(id, { op: "retry" });
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [backend]);

  const answerHooks = useCallback(
    async (hash: string | null) => {
      setState(answerHookConsent);
      if (hash !== null) await op({ op: "consent_hooks", hash });
    },
    [op],
  );

  return {
    state,
    sessionId,
    // The engine's word once it spoke: a model chosen in Settings applies to a running session.
    model: state.model ?? meta.model,
    provider: meta.provider,
    error,
    stopped,
    send,
    op,
    takeBack,
    retry,
    answerHooks,
    clearError: () => {
      setError(null);
      setStopped(null);
    },
  };
}
