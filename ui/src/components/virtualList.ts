// The arithmetic of the virtualised conversation: where each entry starts (measured heights,
// estimates for entries never rendered) and which entries a scroll position needs.

/**
 * Start offsets of `count` entries laid out one after another: `offsets[i]` is where entry `i`
 * starts and `offsets[count]` the total height.
 */
export function layoutOffsets(count: number, height: (index: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + height(i);
  return offsets;
}

/** The first entry that ends below `y` (the entry at `y`); `count` when `y` is past the end. */
export function entryAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1]! > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Entries `[start, end)` that overlap `[top, bottom)`; at least one entry when there are any. */
export function visibleRange(offsets: Float64Array, top: number, bottom: number): [number, number] {
  const count = offsets.length - 1;
  if (count === 0) return [0, 0];
  const start = Math.min(entryAt(offsets, Math.max(0, top)), count - 1);
  let end = start + 1;
  while (end < count && offsets[end]! < bottom) end++;
  return [start, end];
}
