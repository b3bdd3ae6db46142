// Whether the sidebar is folded to a narrow rail. In a wide window the person's choice holds,
// remembered in the webview's local storage; in a narrow one (under NARROW_PX) it folds by
// itself, and opening it there lasts until the window is narrow again.
import { useCallback, useEffect, useState } from "react";

/** The local storage key of the choice made in a wide window: "collapsed" or "open". */
export const SIDEBAR_KEY = "foreman.sidebar";

/** Below this window width (px) the sidebar folds by itself: the conversation needs the room. */
export const NARROW_PX = 900;

const NARROW_QUERY = `(max-width: ${NARROW_PX - 1}px)`;

function stored(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_KEY) === "collapsed";
  } catch {
    return false;
  }
}

function store(collapsed: boolean) {
  try {
    window.localStorage.setItem(SIDEBAR_KEY, collapsed ? "collapsed" : "open");
  } catch {
    // Best effort: the choice holds until the window is closed.
  }
}

/** Whether the window is narrow now, and a way to hear it change. */
function narrowMedia(): MediaQueryList | null {
  return typeof window.matchMedia === "function" ? window.matchMedia(NARROW_QUERY) : null;
}

export interface SidebarCollapse {
  collapsed: boolean;
  /** The window is under NARROW_PX: the sidebar folds by itself. */
  narrow: boolean;
  toggle(): void;
}

export function useSidebarCollapse(): SidebarCollapse {
  const [wideCollapsed, setWideCollapsed] = useState(stored);
  const [narrow, setNarrow] = useState(() => narrowMedia()?.matches ?? false);
  // Opened in a narrow window: until it is narrow again.
  const [narrowOpen, setNarrowOpen] = useState(false);
  useEffect(() => {
    const media = narrowMedia();
    if (!media) return;
    const onChange = () => {
      setNarrow(media.matches);
      setNarrowOpen(false);
    };
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, []);
  const toggle = useCallback(() => {
    if (narrow) {
      setNarrowOpen((open) => !open);
      return;
    }
    setWideCollapsed((was) => {
      store(!was);
      return !was;
    });
  }, [narrow]);
  return { collapsed: narrow ? !narrowOpen : wideCollapsed, narrow, toggle };
}
