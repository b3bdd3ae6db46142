// Starts tauri-driver and opens the real Foreman app through WebDriver.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { remote } from "webdriverio";

const APP = process.env.FOREMAN_APP;
export const SCREENSHOTS = process.env.FOREMAN_SCREENSHOTS ?? join(process.cwd(), "screenshots");

/** Two ports no one listens on now, told apart while both are held. */
function freePorts() {
  const hold = () =>
    new Promise((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.on("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(server));
    });
  return Promise.all([hold(), hold()]).then(
    (servers) =>
      new Promise((resolve) => {
        const ports = servers.map((server) => server.address().port);
        let open = servers.length;
        for (const server of servers) server.close(() => --open === 0 && resolve(ports));
      }),
  );
}

/**
 * Copies the driver's output to ours, once per run of a repeated line: when its port was taken
 * after we chose it, tauri-driver prints "accept new stream fail" in a tight loop (gigabytes in
 * seconds). Calls `onBusy` when it says it cannot listen.
 */
function forward(stream, out, onBusy) {
  let last = "";
  let rest = "";
  stream.on("data", (chunk) => {
    const lines = (rest + chunk.toString()).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line.includes("Unable to listen")) onBusy(line);
      if (line === last) continue;
      last = line;
      out.write(line + "\n");
    }
  });
}

async function waitForPort(port, timeoutMs, failed = () => null) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !failed()) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/status`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`tauri-driver did not start on port ${port}`);
}

/**
 * A private home for the app: its data (SQLite), config and cache directories live here, so tests
 * never touch the developer's own Foreman data. Launches that share a home share the store.
 */
export function makeHome(name) {
  const home = mkdtempSync(join(tmpdir(), `foreman-e2e-${name}-`));
  for (const dir of ["data", "config", "cache"]) mkdirSync(join(home, dir));
  return home;
}

/** The app's environment with `home` as its data, config and cache, and `env` added. */
function appEnv(home, env) {
  return {
    ...process.env,
    XDG_DATA_HOME: join(home, "data"),
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_CACHE_HOME: join(home, "cache"),
    ...env,
  };
}

/**
 * Launches the app with `args` and `home`, returning { browser, close }.
 * `env` adds variables (e.g. GTK_THEME for the dark theme).
 */
export async function launch({ args = [], home, env = {} }) {
  // The ports are free when chosen, but another process may take one before the driver binds
  // it (an ephemeral port of an outgoing connection): then it is tried again with others.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchOnce({ args, home, env });
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
      console.error(`${error.message}; trying other ports`);
    }
  }
}

class PortTaken extends Error {}

async function launchOnce({ args, home, env }) {
  const [port, nativePort] = await freePorts();
  const driver = spawn("tauri-driver", ["--port", String(port), "--native-port", String(nativePort)], {
    env: appEnv(home, env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let busy = null;
  const onBusy = (line) => {
    busy = line;
    driver.kill("SIGKILL");
  };
  forward(driver.stdout, process.stdout, onBusy);
  forward(driver.stderr, process.stderr, onBusy);
  try {
    await waitForPort(port, 15000, () => busy);
    const browser = await remote({
      hostname: "127.0.0.1",
      port,
      logLevel: "warn",
      capabilities: { "tauri:options": { application: APP, args } },
    });
    await browser.setWindowSize(1200, 780).catch(() => {});
    return {
      browser,
      /** The pid of tauri-driver, whose descendants include the app. */
      driverPid: driver.pid,
      /** Ends the session (unless it is gone: `endSession: false`) and stops the app. */
      async close({ endSession = true } = {}) {
        // The app and the WebKit processes it started, found while the driver is their parent.
        const app = descendants(driver.pid).filter((pid) => commOf(pid) !== "WebKitWebDriver");
        if (endSession) await browser.deleteSession().catch(() => {});
        driver.kill("SIGTERM");
        await new Promise((r) => setTimeout(r, 300));
        await stopOrphans(app);
      },
    };
  } catch (error) {
    driver.kill("SIGKILL");
    if (busy) throw new PortTaken(`tauri-driver could not listen (${busy})`);
    throw error;
  }
}

/**
 * Starts the app binary again, as a person would type `foreman ARGS` in `cwd`, with the
 * environment `launch` gave the running app (`home`, and the run's D-Bus session, through which
 * the second process finds the first). Resolves to { code, signal, ms } once it has ended.
 */
export function launchAgain({ args = [], home, env = {}, cwd = process.cwd(), timeoutMs = 30000 }) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(APP, args, { env: appEnv(home, env), cwd, stdio: ["ignore", "inherit", "inherit"] });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the second launch (${args.join(" ")}) did not end within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ms: Date.now() - started });
    });
  });
}

/** The short name of process `pid` (at most 15 characters), or "" once it is gone. */
function commOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

/** Whether process `pid` still runs (a zombie has finished). */
function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * Ends the processes in `pids` that outlived the WebDriver session. Ending the session closes
 * the page, and the app then normally quits; now and then it stays, with an empty window, and
 * holds the test process's stderr open, so the test runner would wait for it forever.
 */
async function stopOrphans(pids) {
  const deadline = Date.now() + 3000;
  while (pids.some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const left = pids.filter(running);
  if (left.length === 0) return;
  console.error(`e2e: ${left.map((pid) => `${commOf(pid)} (${pid})`).join(", ")} outlived the WebDriver session; stopping`);
  for (const signal of ["SIGTERM", "SIGKILL"]) {
    for (const pid of left.filter(running)) {
      try {
        process.kill(pid, signal);
      } catch {
        // It ended meanwhile.
      }
    }
    const until = Date.now() + 2000;
    while (left.some(running) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  }
}

/** The first descendant of process `root` whose short name is `name` (15 characters at most). */
export function descendantNamed(root, name) {
  return descendants(root).find((pid) => commOf(pid) === name);
}

/** Pids of the descendants of process `root`, from /proc. */
export function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so split after its closing paren.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  const out = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Saves a screenshot of the window as target/e2e-screenshots/<name>.png. */
export async function screenshot(browser, name) {
  await browser.pause(250); // let fonts and transitions settle
  // WebKitWebDriver takes the picture at the page's next paint. With compositing off (the app's
  // choice on a machine without a GPU) a page where nothing changes does not paint, and the
  // request hangs; a pixel nobody can see, changing for a moment, makes it paint.
  await browser.execute(() => {
    const dot = document.createElement("div");
    dot.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;opacity:0.01";
    document.body.append(dot);
    let frames = 0;
    const tick = () => {
      dot.style.background = frames % 2 ? "#000" : "#fff";
      if (++frames < 120) requestAnimationFrame(tick);
      else dot.remove();
    };
    requestAnimationFrame(tick);
  });
  await browser.saveScreenshot(join(SCREENSHOTS, `${name}.png`));
}

/** Types `text` into the composer once it takes input, and sends it. */
export async function sendMessage(browser, text) {
  const composer = await browser.$('[data-testid="composer"]');
  await composer.waitForEnabled({ timeout: 20000 });
  await composer.click();
  await composer.addValue(text);
  await (await browser.$('[data-testid="send"]')).click();
}

/** Settings › Provider: stores `key`, points the provider at `url` with `model`, saves, closes. */
export async function setUpProvider(browser, { key, url, model }) {
  await (await browser.$('[data-testid="open-settings"]')).click();
  await (await browser.$('[data-testid="settings"]')).waitForDisplayed({ timeout: 10000 });
  await (await browser.$('[data-testid="api-key"]')).setValue(key);
  await (await browser.$('[data-testid="save-key"]')).click();
  await (await browser.$('[data-testid="key-stored"]')).waitForDisplayed({ timeout: 10000 });
  await (await browser.$('[data-testid="base-url"]')).setValue(url);
  await (await browser.$('[data-testid="model"]')).setValue(model);
  const save = await browser.$('[data-testid="save-settings"]');
  await save.waitForEnabled({ timeout: 10000 });
  await save.click();
  await (await browser.$('[data-testid="close-settings"]')).click();
  await (await browser.$('[data-testid="composer"]')).waitForDisplayed({ timeout: 10000 });
}
