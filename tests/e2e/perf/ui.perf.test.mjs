// UI performance in the real window, reported as numbers (run by `make bench`, never as timed
// pass/fail tests): cold start to the welcome screen and to a workspace (with the page's marks of
// where the time went), a 1 MiB file streamed into a write card at
// full speed (longest frame while it streams, and the delay from the end of the stream to its
// last line on screen; then "Show all" on its diff and scrolling the diff's box), opening a stored
// session of 2,000 messages and tool calls, and idle memory.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { sampleThread } from "../lib/cpuSampler.mjs";
import { descendantNamed, descendants, launch, makeHome, screenshot } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";
import { seedSession } from "../lib/history.mjs";
import { startModel } from "../lib/model.mjs";

const results = [];
function report(what, value, note = "") {
  results.push(`| ${what} | ${value} | ${note} |`);
}

after(() => {
  console.log("\n| UI measurement | value | note |\n|---|---|---|\n" + results.join("\n"));
});


/** When process `pid` started, in ms since the epoch (from /proc, to 10 ms). */
function processStart(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  // Seconds since boot now, against the clock now (`btime` in /proc/stat drifts in VMs).
  const uptime = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
  return Date.now() - uptime * 1000 + (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

test("cold start to the welcome screen", async () => {
  const home = makeHome("perf-start");
  const total = [];
  const own = [];
  for (let i = 0; i < 3; i += 1) {
    const started = Date.now();
    const app = await launch({ home });
    try {
      await (await app.browser.$('[data-testid="welcome"]')).waitForDisplayed({ timeout: 30000, interval: 10 });
      const shown = Date.now();
      total.push(shown - started);
      const pid = descendantNamed(app.driverPid, "foreman");
      if (pid !== undefined) own.push(shown - processStart(pid));
    } finally {
      await app.close();
    }
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  report("cold start: the app's process started → welcome screen displayed (median of 3)", own.length === 3 ? `${median(own).toFixed(0)} ms` : "not found", "target < 1 s; process start from /proc (10 ms steps), the screen polled every 10 ms");
  report("cold start including the drivers (median of 3)", `${median(total)} ms`, "from starting tauri-driver + WebKitWebDriver + the app until the screen is displayed, so an upper bound");
});

test("cold start to the workspace screen, and where the time goes", async () => {
  // As the install test starts the app (a folder on its command line), after one start that
  // is not counted (it starts the D-Bus services the app asks for and fills the file cache).
  const project = mkdtempSync(join(tmpdir(), "foreman-perf-start-"));
  const rows = [];
  for (let i = 0; i < 4; i += 1) {
    const app = await launch({ args: [project], home: makeHome(`perf-start-ws-${i}`) });
    try {
      await (await app.browser.$('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000, interval: 10 });
      const shown = Date.now();
      const pid = descendantNamed(app.driverPid, "foreman");
      if (i === 0 || pid === undefined) continue;
      const start = processStart(pid);
      // The page's marks (ui/src/main.tsx) on its own clock, against the process's start.
      const page = await app.browser.execute(() => ({
        origin: performance.timeOrigin,
        marks: Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])),
      }));
      const at = (name) => page.origin + (name ? page.marks[name] : 0) - start;
      rows.push({
        page: at(null),
        code: at("foreman:module"),
        startup: at("foreman:startup-reply"),
        drawn: at("foreman:workspace"),
        shown: shown - start,
      });
    } finally {
      await app.close();
    }
  }
  const median = (key) => {
    const xs = rows.map((r) => r[key]).sort((a, b) => a - b);
    return `${xs[xs.length >> 1].toFixed(0)} ms`;
  };
  report(
    "cold start: the app's process started → workspace screen displayed (median of 3, after one start not counted)",
    median("shown"),
    `page navigation ${median("page")}, code run ${median("code")}, startup answered ${median("startup")}, ` +
      `workspace drawn ${median("drawn")}`,
  );
});

test("idle memory of the app's process tree", async () => {
  const home = makeHome("perf-memory");
  const project = mkdtempSync(join(tmpdir(), "foreman-perf-mem-"));
  const app = await launch({ args: [project], home });
  try {
    await (await app.browser.$('[data-testid="workspace"]')).waitForDisplayed({ timeout: 30000 });
    await new Promise((r) => setTimeout(r, 8000)); // idle: the first paint's caches settled
    // The app and the WebKit processes it starts; not the drivers that launched it.
    const parts = [];
    for (const pid of descendants(app.driverPid)) {
      try {
        const name = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
        if (name === "WebKitWebDriver") continue;
        const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
        if (pss) parts.push([name, Number(pss[1]) / 1024]);
      } catch {
        // The process ended meanwhile.
      }
    }
    assert.ok(parts.some(([name]) => name.startsWith("foreman")), `the app is among ${parts.map(([n]) => n)}`);
    const total = parts.reduce((sum, [, mib]) => sum + mib, 0);
    report(
      "idle memory of the app's process tree, 8 s after a workspace opened (PSS)",
      `${total.toFixed(0)} MiB`,
      parts.map(([name, mib]) => `${name} ${mib.toFixed(0)} MiB`).join(", "),
    );
  } finally {
    await app.close();
  }
});

test("a 1 MiB write streamed at full speed", async () => {
  const model = await startModel();
  const home = makeHome("perf-stream");
  const project = mkdtempSync(join(tmpdir(), "foreman-perf-ws-"));
  mkdirSync(join(home, "config", "dev.foreman.app"), { recursive: true });
  writeFileSync(
    join(home, "config", "dev.foreman.app", "settings.json"),
    JSON.stringify({ provider: { preset: "anthropic", base_url: model.url, model: "claude-perf", text_protocol: false, connect_timeout_secs: 10, idle_timeout_secs: 120, max_attempts: 1 } }),
  );
  execFileSync("secret-tool", ["store", "--label=Foreman perf", "service", "foreman", "username", "anthropic"], { input: "sk-perf" });
  const lines = [];
  let size = 0;
  for (let i = 0; size < 1 << 20; i += 1) {
    const line = `let value_${i} = compute(${i}, "some text with \\"quotes\\" and tabs\\t"); // line ${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  const last = `let value_${lines.length - 1}`;
  const content = lines.join("\n") + "\n";
  model.script({ tool: { name: "write", input: { path: "big.rs", content } }, chunk: 64, delayMs: 0 }, { text: "ok" });
  const app = await launch({ args: [project], home });
  try {
    const b = app.browser;
    await (await b.$('[data-testid="composer"]')).waitForEnabled({ timeout: 30000 });
    // Frame gaps while it streams, and the moment the final content is on screen: the diff of
    // the whole file (its header counts every line) with the approval bar.
    const total = lines.length;
    // The prompt is typed before the frames are watched: WebDriver's simulated keystrokes hold
    // up the page's frames on their own, and typing is not part of the stream.
    await (await b.$('[data-testid="composer"]')).addValue("Write big.rs");
    await b.execute((count) => {
      const w = window;
      // The longest frame in each phase: from the send until the write card is on screen (the
      // session starts: its first message, sidebar entry and status), while the card streams,
      // and from the approval bar on.
      // Frames over 34 ms are kept with their moments (epoch ms), to be split into the main
      // thread's own work and its wait for a CPU.
      w.__perf = { maxGap: 0, maxAt: 0, frames: 0, seen: 0, gaps: [], long: [], phase: { start: 0, stream: 0, end: 0 } };
      let prev = performance.now();
      const tick = (now) => {
        if (!w.__perf.seen) w.__perf.gaps.push(now - prev);
        if (now - prev > w.__perf.maxGap) {
          w.__perf.maxGap = now - prev;
          w.__perf.maxAt = Date.now();
        }
        w.__perf.frames += 1;
        const card = document.querySelector('[data-testid="tool-card"]');
        const phase = !card ? "start" : card.querySelector('[data-testid="approve"]') ? "end" : "stream";
        w.__perf.phase[phase] = Math.max(w.__perf.phase[phase], now - prev);
        if (!w.__perf.seen && now - prev > 34) w.__perf.long.push([performance.timeOrigin + prev, performance.timeOrigin + now, phase]);
        prev = now;
        if (!w.__perf.seen && card && card.querySelector('[data-testid="approve"]') && card.textContent.includes(`+${count}`)) {
          w.__perf.seen = Date.now();
        }
        if (!w.__perf.stop) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }, total);
    // The page's main thread is the web process's first thread; the app's main thread (GTK's,
    // which drives the page's frame clock and hands it the engine's events) is the app's first.
    const byName = (name) => descendantNamed(app.driverPid, name);
    const webPid = byName("WebKitWebProces");
    const appPid = byName("foreman");
    const samplers = webPid === undefined || appPid === undefined ? null : [sampleThread(webPid), sampleThread(appPid)];
    const sent = Date.now();
    await (await b.$('[data-testid="send"]')).click();
    await waitFor("the stream to end", async () => model.lastEnd > 0, 180000);
    const ended = model.lastEnd;
    await waitFor("the final diff on screen", async () => (await b.execute(() => window.__perf.seen)) > 0, 120000);
    const perf = await b.execute(() => {
      window.__perf.stop = true;
      return window.__perf;
    });
    const times = samplers ? await Promise.all(samplers.map((x) => x.stop())) : null;
    await screenshot(b, "90-perf-1mib-write");
    report(`1 MiB write (${total} lines): stream end → diff of the final content with the approval bar on screen`, `${Math.max(0, perf.seen - ended)} ms`, `target ≤ 250 ms; the stream took ${ended - sent} ms`);
    const gaps = perf.gaps.slice().sort((a, b) => a - b);
    const p99 = gaps[Math.floor(gaps.length * 0.99)] ?? 0;
    report("1 MiB write: frames while streaming", `p50 ${gaps[gaps.length >> 1]?.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, ${gaps.filter((g) => g > 50).length} over 50 ms`, "the longest frame alone is at the mercy of the other processes on 2 cores (the scripted server and the engine stream at full speed)");
    report("1 MiB write: longest frame while streaming", `${perf.maxGap.toFixed(0)} ms`, `target ≤ 50 ms; ${perf.frames} frames (requestAnimationFrame gaps; WebKitGTK has no Long Tasks API); it ended ${perf.maxAt - ended} ms after the stream's end`);
    if (times) {
      // Each long frame: how long the main thread ran in it, and how long it was runnable but
      // had no CPU (the scripted server, the engine and the compositor share the 2 cores).
      const [page, shell] = times;
      const split = perf.long.map(([from, to, phase]) => ({ wall: to - from, phase, ...page.between(from, to), shell: shell.between(from, to) }));
      const longest = split.reduce((a, x) => (x.wall > (a?.wall ?? 0) ? x : a), null);
      const busiest = split.reduce((a, x) => (x.ran > (a?.ran ?? 0) ? x : a), null);
      const show = (x) =>
        x
          ? `${x.wall.toFixed(0)} ms frame (${x.phase}): the page ran ${x.ran.toFixed(0)} ms and waited for a CPU ${x.waited.toFixed(0)} ms; the app's main thread ran ${x.shell.ran.toFixed(0)} ms and waited ${x.shell.waited.toFixed(0)} ms`
          : "no frame over 34 ms";
      report("1 MiB write: the longest frame, split", show(longest), `the page's main thread, from /proc/<pid>/task/<tid>/schedstat sampled every ${Math.max(...times.map((t) => t.coarsest())).toFixed(0)} ms at worst; the rest of a frame is idle (waiting for the compositor or for work)`);
      report("1 MiB write: the frame in which the main thread ran longest", show(busiest), `${split.length} frames over 34 ms; what a Long Tasks API would count as the page's own blocking`);
    }
    report("1 MiB write: longest frame by phase: send → card / card streaming / approval bar on", `${perf.phase.start.toFixed(0)} / ${perf.phase.stream.toFixed(0)} / ${perf.phase.end.toFixed(0)} ms`, "a frame is counted in the phase of the DOM it painted");

    // "Show all": the rest of the diff is fetched from the engine (the event carried the first
    // lines) and shown in a scroll box that draws only the rows in view; then the box is scrolled
    // from the top to the bottom in 40 steps.
    await b.execute((count) => {
      const w = window;
      w.__all = { maxGap: 0, start: performance.now(), done: 0 };
      let prev = performance.now();
      const tick = (now) => {
        w.__all.maxGap = Math.max(w.__all.maxGap, now - prev);
        prev = now;
        const box = document.querySelector(".diff-body-virtual");
        if (box && Number(box.dataset.rows) > count && box.querySelector("tr.diff-line")) {
          w.__all.done = now - w.__all.start;
          return;
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      [...document.querySelectorAll("button")].find((x) => x.textContent.startsWith("Show all")).click();
    }, total);
    await waitFor("every line in the diff's box", async () => (await b.execute(() => window.__all.done)) > 0, 60000);
    const shown = await b.execute(() => window.__all);
    const boxScroll = await b.execute(async (lastLine) => {
      const el = document.querySelector(".diff-body-virtual");
      let max = 0;
      let prev = performance.now();
      for (let i = 0; i <= 40; i += 1) {
        el.scrollTop = ((el.scrollHeight - el.clientHeight) * i) / 40;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        max = Math.max(max, now - prev);
        prev = now;
      }
      // The rows of the last position are drawn in its own frame; a few more frames are allowed
      // before the check, which is about the rows, not their timing (measured above).
      const lastRow = () => [...el.querySelectorAll("tr.diff-line")].at(-1)?.textContent ?? "";
      for (let k = 0; k < 10 && !lastRow().includes(lastLine); k += 1) await new Promise((r) => requestAnimationFrame(r));
      return { max, drawn: el.querySelectorAll("tr.diff-line").length, last: lastRow() };
    }, last);
    assert.ok(boxScroll.last.includes(last), `the box scrolls to the last line (${boxScroll.last})`);
    await screenshot(b, "92-perf-1mib-show-all");
    report(`"Show all" on that diff: click → every line in its box`, `${shown.done.toFixed(0)} ms, longest frame ${shown.maxGap.toFixed(0)} ms`, "the rest of the diff is fetched from the engine; only the rows in view are drawn");
    report("scroll that box top to bottom in 40 steps: longest frame", `${boxScroll.max.toFixed(0)} ms`, `${boxScroll.drawn} rows drawn at the end, of ${total}`);
  } finally {
    await app.close();
    await model.close();
    execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"]);
  }
});

test("open a stored session with 2,000 messages and tool calls", async () => {
  const home = makeHome("perf-history");
  const project = mkdtempSync(join(tmpdir(), "foreman-perf-hist-"));
  // The first launch creates the database; then 2,000 messages are written into it.
  let app = await launch({ args: [project], home });
  await (await app.browser.$('[data-testid="workspace"]')).waitForDisplayed({ timeout: 30000 });
  await app.close();
  const db = join(home, "data", "dev.foreman.app", "foreman.db");
  seedSession(db, { id: "s-big", project, title: "A long session", groups: 500 });
  app = await launch({ args: [project], home });
  try {
    const b = app.browser;
    const item = await b.$('[data-testid="session-item"]');
    await item.waitForDisplayed({ timeout: 30000 }); // no model is set up: the history still opens
    await b.execute(() => {
      window.__opened = 0;
      const seen = () => {
        const c = document.querySelector('[data-testid="conversation"]');
        if (c && c.lastElementChild && c.lastElementChild.textContent.includes("Done with step 499.")) window.__opened = Date.now();
        else requestAnimationFrame(seen);
      };
      window.__clicked = Date.now();
      requestAnimationFrame(seen);
    });
    await item.click();
    await waitFor("the last message", async () => (await b.execute(() => window.__opened)) > 0, 60000);
    const ms = await b.execute(() => window.__opened - window.__clicked);
    const cards = await b.$$('[data-testid="tool-card"]');
    assert.ok(cards.length > 0, "the latest tool calls are shown (earlier ones load on scrolling up)");
    // Scrolling: frame gaps while scrolling from the bottom to the top in 40 steps (earlier
    // entries are added as the top is reached).
    const gap = await b.execute(async () => {
      const el = document.querySelector('[data-testid="conversation"]');
      let max = 0;
      let prev = performance.now();
      for (let i = 40; i >= 0; i -= 1) {
        el.scrollTop = (el.scrollHeight * i) / 40;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        max = Math.max(max, now - prev);
        prev = now;
      }
      return max;
    });
    await screenshot(b, "91-perf-2000-messages");
    report("open a session of 2,000 messages (500 tool calls): click → last message on screen", `${ms} ms`, "target < 1 s");
    report("scroll that session top to bottom in 40 steps: longest frame", `${gap.toFixed(0)} ms`, "a virtualised list: only entries near the view are rendered");
  } finally {
    await app.close();
  }
});
