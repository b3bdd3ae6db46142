// What a thread did with its time, sampled from /proc: `schedstat` gives, in nanoseconds, how
// long the thread has run on a CPU and how long it has waited, runnable, for one. Sampled every
// 2 ms from a worker thread (so the test's own event loop, which also serves the scripted model,
// is not disturbed), it splits a long frame of the page into the main thread's own work and the
// time it was ready to run but the 2 cores were busy elsewhere.
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { path, intervalMs, max } = workerData;
const samples = [];
const nap = new Int32Array(new SharedArrayBuffer(4));
let stop = false;
parentPort.on("message", () => { stop = true; });
function loop() {
  for (let i = 0; i < 50 && samples.length < max; i += 1) {
    let text;
    try { text = readFileSync(path, "utf8"); } catch { stop = true; break; }
    const [ran, waited] = text.split(" ").map(Number);
    samples.push([performance.timeOrigin + performance.now(), ran / 1e6, waited / 1e6]);
    Atomics.wait(nap, 0, 0, intervalMs);
  }
  if (stop || samples.length >= max) parentPort.postMessage(samples);
  else setImmediate(loop); // lets the stop message in
}
loop();
`;

/** Starts sampling thread `tid` of process `pid`; `stop()` resolves to the samples. */
export function sampleThread(pid, tid = pid, intervalMs = 2) {
  const path = `/proc/${pid}/task/${tid}/schedstat`;
  readFileSync(path); // fails now, not in the worker, if the thread is not there
  const worker = new Worker(WORKER, { eval: true, workerData: { path, intervalMs, max: 200000 } });
  const done = new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    async stop() {
      worker.postMessage("stop");
      const samples = await done;
      await worker.terminate();
      return new ThreadTimes(samples);
    },
  };
}

/** Cumulative run and wait times of a thread at sampled moments (epoch milliseconds). */
export class ThreadTimes {
  constructor(samples) {
    this.samples = samples;
  }

  /** Run and wait times at moment `t`, interpolated between the samples around it. */
  at(t) {
    const s = this.samples;
    if (s.length === 0) return null;
    if (t <= s[0][0]) return { ran: s[0][1], waited: s[0][2] };
    let lo = 0;
    let hi = s.length - 1;
    if (t >= s[hi][0]) return { ran: s[hi][1], waited: s[hi][2] };
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (s[mid][0] <= t) lo = mid;
      else hi = mid;
    }
    const f = (t - s[lo][0]) / (s[hi][0] - s[lo][0] || 1);
    return { ran: s[lo][1] + f * (s[hi][1] - s[lo][1]), waited: s[lo][2] + f * (s[hi][2] - s[lo][2]) };
  }

  /** How long the thread ran and waited for a CPU between moments `from` and `to`. */
  between(from, to) {
    const a = this.at(from);
    const b = this.at(to);
    if (!a || !b) return null;
    return { ran: b.ran - a.ran, waited: b.waited - a.waited };
  }

  /** The longest gap between two samples: how precise `between` is. */
  coarsest() {
    let worst = 0;
    for (let i = 1; i < this.samples.length; i += 1) worst = Math.max(worst, this.samples[i][0] - this.samples[i - 1][0]);
    return worst;
  }
}
