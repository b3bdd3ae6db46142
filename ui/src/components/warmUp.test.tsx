import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { resetWarmUp, startWarmUp, WARM_UP_DELAY_MS, WARM_UP_PARTS } from "./warmUp";

/** Schedules a step `ms` later. */
const after = (ms: number) => (run: () => void) => {
  const handle = setTimeout(run, ms);
  return () => clearTimeout(handle);
};
const soon = after(0);

/** Records what each hidden drawing held while it was in the document. */
function watchDrawings() {
  const drawn: string[] = [];
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof HTMLElement && node.classList.contains("warm-up")) drawn.push(node.className);
      }
    }
  });
  observer.observe(document.body, { childList: true });
  return { drawn, stop: () => observer.disconnect() };
}

/** The text of every drawing, captured when the root renders into it. */
function captureTexts(): { texts: string[]; restore(): void } {
  const texts: string[] = [];
  const descriptor = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "offsetHeight")!;
  Object.defineProperty(HTMLElement.prototype, "offsetHeight", {
    configurable: true,
    get(this: HTMLElement) {
      if (this.classList.contains("warm-up")) texts.push(this.textContent ?? "");
      return descriptor.get!.call(this);
    },
  });
  return {
    texts,
    restore() {
      Object.defineProperty(HTMLElement.prototype, "offsetHeight", descriptor);
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  resetWarmUp();
});

afterEach(() => {
  vi.useRealTimers();
});

test("draws each part of a first turn once, out of sight, lays it out and removes it", async () => {
  const composer = document.createElement("textarea");
  document.body.append(composer);
  composer.focus();
  const watch = watchDrawings();
  const capture = captureTexts();
  try {
    startWarmUp(() => false, soon);
    await vi.advanceTimersByTimeAsync(WARM_UP_DELAY_MS - 1);
    expect(capture.texts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(watch.drawn).toHaveLength(WARM_UP_PARTS);
    // Each part was laid out with its content: messages, the streaming write, the diff with its
    // approval bar, a command's output.
    const all = capture.texts.join("\n");
    expect(all).toContain("Write src/greeting.rs and run the tests");
    expect(all).toContain("hello, world");
    expect(all).toContain("running 3 tests");
    expect(capture.texts.some((t) => t.includes("@@ -1,3 +1,4 @@"))).toBe(true);
    // Nothing is left behind and the focus stayed where the user had it.
    expect(document.querySelector(".warm-up")).toBeNull();
    expect(document.activeElement).toBe(composer);
    // Once per page: a second start draws nothing.
    startWarmUp(() => false, soon);
    await vi.advanceTimersByTimeAsync(1000);
    expect(watch.drawn).toHaveLength(WARM_UP_PARTS);
  } finally {
    watch.stop();
    capture.restore();
    composer.remove();
  }
});

test("stops for good once the conversation shows something, and when it is stopped", async () => {
  const watch = watchDrawings();
  const tick = after(10);
  try {
    let busy = false;
    const stop = startWarmUp(() => busy, tick);
    await vi.advanceTimersByTimeAsync(WARM_UP_DELAY_MS + 10);
    expect(watch.drawn).toHaveLength(1);
    // Stopped (the workspace closed): a new start goes on from the next part.
    stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(watch.drawn).toHaveLength(1);
    startWarmUp(() => busy, tick);
    await vi.advanceTimersByTimeAsync(WARM_UP_DELAY_MS + 10);
    expect(watch.drawn).toHaveLength(2);
    // The user sent a message: the real entries warm up the rest.
    busy = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(watch.drawn).toHaveLength(2);
    busy = false;
    startWarmUp(() => busy, tick);
    await vi.advanceTimersByTimeAsync(1000);
    expect(watch.drawn).toHaveLength(2);
  } finally {
    watch.stop();
  }
});
