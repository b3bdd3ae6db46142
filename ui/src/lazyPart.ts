// Parts of the window the first screen does not draw (Settings, the conversation's cards, the
// task panels, the dialogs) are chunks of their own, loaded on first use, so the page parses
// and compiles less before its first screen (issue 41: the one 700 kB chunk took ~40 ms before
// anything rendered). `preload` fetches a part early, e.g. while the page is idle.
import { createElement, lazy, useState, type ComponentType } from "react";

export type LazyPart<P> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * A component loaded by `load` the first time it renders or is preloaded. Once loaded, a new
 * instance renders it directly: React.lazy would suspend its first render for a tick even then.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return { default: component };
    }));
  const Lazy = lazy(start);
  function Part(props: P) {
    // Chosen once per instance, so it is never mounted again when the load finishes.
    const [direct] = useState(() => loaded);
    return direct ? createElement(direct, props) : createElement(Lazy as ComponentType<P>, props);
  }
  const part = Part as LazyPart<P>;
  part.preload = start;
  return part;
}
