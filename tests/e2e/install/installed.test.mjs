// The INSTALLED app (scripts/install-test.sh sets FOREMAN_APP=/usr/bin/foreman after installing
// the .deb): started with a workspace folder, like "Open with Foreman" on a folder, it shows the
// workspace screen. Three cold starts, each with a fresh home; prints the median time from the
// app's process start to the workspace screen, and where that time went (the page's own marks,
// ui/src/main.tsx).
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { descendantNamed, launch, makeHome, screenshot } from "../lib/app.mjs";

/** When process `pid` started, in ms since the epoch (from /proc, to 10 ms). */
function processStart(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  const uptime = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
  return Date.now() - uptime * 1000 + (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

test("the installed app opens the folder it is given on the workspace screen", async () => {
  assert.ok(process.env.FOREMAN_APP?.startsWith("/usr/"), `an installed app, not ${process.env.FOREMAN_APP}`);
  const project = join(mkdtempSync(join(tmpdir(), "foreman-install-")), "installed-project");
  mkdirSync(project);
  writeFileSync(join(project, "README.md"), "# installed\n");
  const own = [];
  const total = [];
  const phases = [];
  for (let i = 0; i < 3; i += 1) {
    const started = Date.now();
    const app = await launch({ args: [project], home: makeHome(`install-${i}`) });
    try {
      const name = await app.browser.$('[data-testid="workspace-name"]');
      await name.waitForDisplayed({ timeout: 30000, interval: 10 });
      const shown = Date.now();
      total.push(shown - started);
      const pid = descendantNamed(app.driverPid, "foreman");
      if (pid !== undefined) {
        const start = processStart(pid);
        own.push(shown - start);
        // The page's clock against the process's start: when its navigation began, when its code
        // had run, when the engine answered `startup`, when the workspace screen was drawn.
        const page = await app.browser.execute(() => ({
          origin: performance.timeOrigin,
          marks: Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])),
        }));
        const at = (t) => (t === undefined ? NaN : page.origin + t - start);
        phases.push({
          page: at(0),
          code: at(page.marks["foreman:module"]),
          startup: at(page.marks["foreman:startup-reply"]),
          drawn: at(page.marks["foreman:workspace"]),
        });
      }
      assert.equal(await name.getText(), basename(project));
      if (i === 0) await screenshot(app.browser, "install-01-workspace");
    } finally {
      await app.close();
    }
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  assert.equal(own.length, 3, "the app's process was found each time");
  console.log(
    `installed app cold start to the workspace screen (median of 3): ${median(own).toFixed(0)} ms ` +
      `from its process start; ${median(total)} ms including tauri-driver and WebKitWebDriver`,
  );
  const phase = (key) => median(phases.map((p) => p[key])).toFixed(0);
  console.log(
    `  medians from the process start: page navigation ${phase("page")} ms, code run ${phase("code")} ms, ` +
      `startup answered ${phase("startup")} ms, workspace drawn ${phase("drawn")} ms`,
  );
});
