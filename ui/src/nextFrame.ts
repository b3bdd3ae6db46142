/**
 * Runs `f` before the next frame is painted (`requestAnimationFrame`, or a 16 ms timer where
 * there is none, as in the unit tests) and returns a function that cancels it.
 */
export const nextFrame: (f: () => void) => () => void =
  typeof requestAnimationFrame === "function"
    ? (f) => {
        const id = requestAnimationFrame(f);
        return () => cancelAnimationFrame(id);
      }
    : (f) => {
        const id = setTimeout(f, 16);
        return () => clearTimeout(id);
      };
