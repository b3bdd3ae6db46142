// Many agents at once, in the real window (run by `make bench`, reported as numbers, never as
// timed pass/fail tests): five tasks on one repository, each in a worktree of its own, whose
// agents stream a 200 KiB write at the same moment. Reported: the window's frames while they
// stream (p99 and longest; the shown task's card streams in view, the other four in the
// background), and the memory each task adds to the app's process tree (PSS with one task open
// against five, all idle).
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { descendants, launch, makeHome, screenshot } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";
import { startModel } from "../lib/model.mjs";

const results = [];
after(() => {
  console.log("\n| UI measurement | value | note |\n|---|---|---|\n" + results.join("\n"));
});

const TASKS = 5;

/** The PSS of the app and its WebKit processes, in MiB (not the drivers). */
function treeMemory(driverPid) {
  let total = 0;
  for (const pid of descendants(driverPid)) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "WebKitWebDriver") continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
      if (pss) total += Number(pss[1]) / 1024;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/** A promise and the function that settles it. */
function gate() {
  let open;
  const promise = new Promise((resolve) => (open = resolve));
  return { promise, open };
}

test("five tasks streaming at once", async () => {
  const model = await startModel();
  const home = makeHome("perf-tasks");
  const repo = realpathSync(mkdtempSync(join(tmpdir(), "foreman-perf-tasks-")));
  const git = (...args) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
  writeFileSync(join(repo, "README.md"), "# five tasks\n");
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=perf", "-c", "user.email=perf@example.invalid", "commit", "-q", "-m", "start");
  mkdirSync(join(home, "config", "dev.foreman.app"), { recursive: true });
  writeFileSync(
    join(home, "config", "dev.foreman.app", "settings.json"),
    JSON.stringify({
      provider: { preset: "anthropic", base_url: model.url, model: "claude-perf", text_protocol: false, connect_timeout_secs: 10, idle_timeout_secs: 120, max_attempts: 1 },
      approval_mode: "auto",
      max_tasks: TASKS,
    }),
  );
  execFileSync("secret-tool", ["store", "--label=Foreman perf", "service", "foreman", "username", "anthropic"], { input: "sk-perf" });
  const lines = [];
  for (let i = 0, size = 0; size < 200 * 1024; i += 1) {
    const line = `export const value_${i} = compute(${i}, "text"); // line ${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  const content = lines.join("\n") + "\n";
  const go = gate();
  const says = (n) => `Perf task ${n}: write the generated values`;
  for (let n = 1; n <= TASKS; n += 1) {
    model.route(
      says(n),
      { text: "Writing the file. ", tool: { name: "write", input: { path: `values${n}.ts`, content } }, chunk: 64, delayMs: 0, until: go.promise },
      { text: "Done." },
    );
  }
  const app = await launch({ args: [repo], home });
  const b = app.browser;
  const $ = (s) => b.$(s);
  try {
    await (await $('[data-testid="composer"]')).waitForEnabled({ timeout: 30000 });
    const memory = [];
    for (let n = 1; n <= TASKS; n += 1) {
      await (await $('[data-testid="new-session"]')).click();
      await (await $('[data-testid="place-worktree"]')).waitForEnabled({ timeout: 20000 });
      await (await $('[data-testid="task-name"]')).setValue(`perf-${n}`);
      await (await $('[data-testid="start-task"]')).click();
      await waitFor(`task perf-${n} shown`, async () => {
        const panel = await $('[data-testid="task-panel"]');
        return (await panel.isExisting()) && (await panel.getAttribute("aria-label")) === `Task perf-${n}`;
      });
      const composer = await $('[data-testid="composer"]');
      await composer.waitForEnabled({ timeout: 30000 });
      // Typed again if the opening session redrew the composer meanwhile.
      await waitFor(`task ${n}'s message typed`, async () => {
        if ((await composer.getValue()) === says(n)) return true;
        await composer.clearValue();
        await composer.click();
        await composer.addValue(says(n));
        return false;
      });
      await (await $('[data-testid="send"]')).click();
      try {
        await waitFor(`task ${n}'s first request`, () => model.requestsFor(says(n)).length === 1, 30000);
      } catch (error) {
        await screenshot(b, `91-perf-five-tasks-failed-${n}`);
        throw error;
      }
      if (n === 1 || n === TASKS) {
        await new Promise((r) => setTimeout(r, 5000)); // settled
        memory.push(treeMemory(app.driverPid));
      }
    }
    await b.execute(() => {
      const w = window;
      w.__perf = { gaps: [], stop: false };
      let prev = performance.now();
      const tick = (now) => {
        w.__perf.gaps.push(now - prev);
        prev = now;
        if (!w.__perf.stop) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const started = Date.now();
    go.open();
    for (let n = 1; n <= TASKS; n += 1) {
      await waitFor(`task ${n} to finish`, () => model.requestsFor(says(n)).length === 2, 240000);
    }
    const took = Date.now() - started;
    const gaps = await b.execute(() => {
      window.__perf.stop = true;
      return window.__perf.gaps;
    });
    await screenshot(b, "91-perf-five-tasks");
    for (let n = 1; n <= TASKS; n += 1) {
      const branch = `foreman/perf-${n}`;
      const list = git("worktree", "list", "--porcelain");
      assert.ok(list.includes(`refs/heads/${branch}`), `${branch} has a worktree`);
    }
    const sorted = gaps.slice().sort((x, y) => x - y);
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
    results.push(`| five tasks streaming a 200 KiB write each at once: frames | p99 ${p99.toFixed(0)} ms, longest ${sorted[sorted.length - 1]?.toFixed(0)} ms, ${sorted.filter((g) => g > 50).length} of ${sorted.length} over 50 ms | target p99 ≤ 50 ms; the streams took ${took} ms; the shown task's card streams in view |`);
    const [one, five] = memory;
    results.push(`| memory each extra task adds (PSS of the app's process tree, 1 task open → ${TASKS}) | ${((five - one) / (TASKS - 1)).toFixed(1)} MiB | ${one.toFixed(0)} MiB with one task, ${five.toFixed(0)} MiB with ${TASKS}; each idle, waiting for its answer |`);
  } finally {
    await app.close();
    await model.close();
    try {
      execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"], { stdio: "ignore" });
    } catch {}
  }
});
