// Whether a `position: sticky` element pinned to the bottom of the conversation is stuck there
// (the content it belongs to goes on below it) rather than resting in its place. A pinned
// approval bar fades out the lines that pass under it instead of slicing one in half.
import { useEffect, useState, type RefObject } from "react";

/** `bottom` is the element's sticky `bottom` offset, in pixels. */
export function useStuck(ref: RefObject<HTMLElement | null>, bottom: number): boolean {
  const [stuck, setStuck] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const root = element.closest<HTMLElement>('[data-testid="conversation"]');
    // Stuck, the element sits exactly `bottom` px above the root's edge: a root one pixel
    // shorter than that no longer holds all of it.
    const observer = new IntersectionObserver(
      ([entry]) => setStuck(entry !== undefined && entry.isIntersecting && entry.intersectionRatio < 1),
      { root, rootMargin: `0px 0px -${bottom + 1}px 0px`, threshold: [0, 1] },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, bottom]);
  return stuck;
}
