// The engine's word that a session has its title (taken from its first message as it is sent),
// so the sidebar names a running session at once instead of "Untitled" until its task ends.
// The event (`EventMsg::SessionTitled`, `session_titled`) is new in the engine: until its type is
// generated into ../protocol, it is read through this local interface.

/** The `session_titled` event's own fields. */
export interface SessionTitled {
  type: "session_titled";
  title: string;
}

/** Whether an event is the session's title. */
export function isTitled(event: { type: string }): event is SessionTitled {
  return event.type === "session_titled";
}

/** The title the event gives its session, or null when it is empty. */
export function titleOf(event: SessionTitled): string | null {
  return typeof event.title === "string" && event.title.trim() !== "" ? event.title : null;
}
