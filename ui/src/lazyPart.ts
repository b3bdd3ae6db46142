// Parts of the window the first screen does not draw (Settings, the conversation's cards, the
// task panels, the dialogs) are chunks of their own, loaded on first use, so the page parses
// and compiles less before its first screen (issue 41: the one 700 kB chunk took ~40 ms before
// anything rendered). `preload` fetches a part early, e.g. while the page is idle.
import { lazy, type ComponentType } from "react";

export type LazyPart<P> = ComponentType<P> & { preload(): Promise<unknown> };

/** A component loaded by `load` the first time it renders or is preloaded. */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => (loading ??= load().then((component) => ({ default: component })));
  const Part = lazy(start) as unknown as LazyPart<P>;
  Part.preload = start;
  return Part;
}
