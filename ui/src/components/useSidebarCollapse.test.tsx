import { act, renderHook } from "@testing-library/react";
import { NARROW_PX, SIDEBAR_KEY, useSidebarCollapse } from "./useSidebarCollapse";

/** A window `width` wide, whose narrow query answers and can be told the width changed. */
function windowOf(width: number) {
  const listeners = new Set<() => void>();
  const media = {
    get matches() {
      return width < NARROW_PX;
    },
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  window.matchMedia = vi.fn(() => media as unknown as MediaQueryList);
  return {
    resize(to: number) {
      width = to;
      for (const l of listeners) l();
    },
  };
}

beforeEach(() => window.localStorage.clear());

test("in a wide window the sidebar folds and unfolds as asked, and the choice is remembered", () => {
  windowOf(1200);
  const { result, unmount } = renderHook(() => useSidebarCollapse());
  expect(result.current.collapsed).toBe(false);
  act(() => result.current.toggle());
  expect(result.current.collapsed).toBe(true);
  expect(window.localStorage.getItem(SIDEBAR_KEY)).toBe("collapsed");
  unmount();
  // A new window (or a reload) starts as it was left.
  const again = renderHook(() => useSidebarCollapse());
  expect(again.result.current.collapsed).toBe(true);
  act(() => again.result.current.toggle());
  expect(window.localStorage.getItem(SIDEBAR_KEY)).toBe("open");
});

test("below the breakpoint it folds by itself; opened there, it folds again when the window is narrowed again", () => {
  const win = windowOf(760);
  const { result } = renderHook(() => useSidebarCollapse());
  expect(result.current).toMatchObject({ collapsed: true, narrow: true });
  act(() => result.current.toggle());
  expect(result.current.collapsed).toBe(false);
  // Opening it in a narrow window is not a choice for wide ones.
  expect(window.localStorage.getItem(SIDEBAR_KEY)).toBeNull();
  act(() => win.resize(1200));
  expect(result.current).toMatchObject({ collapsed: false, narrow: false });
  act(() => win.resize(700));
  expect(result.current.collapsed).toBe(true);
});
