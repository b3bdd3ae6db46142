// Waiting in the window's tests: polls `check` until it gives something truthy (returned), or
// fails after `timeout` ms naming `what` and the last value or error seen. A check that throws
// (an element not there yet) counts as not yet.
export async function waitFor(what, check, timeout = 20000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await check();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what} (last: ${last})`);
}
