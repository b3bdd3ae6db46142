// Starts tauri-driver and opens the real Foreman app through WebDriver.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { remote } from "webdriverio";

const APP = process.env.FOREMAN_APP;
export const SCREENSHOTS = process.env.FOREMAN_SCREENSHOTS ?? join(process.cwd(), "screenshots");

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
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

/**
 * Launches the app with `args` and `home`, returning { browser, close }.
 * `env` adds variables (e.g. GTK_THEME for the dark theme).
 */
export async function launch({ args = [], home, env = {} }) {
  const port = await freePort();
  const nativePort = await freePort();
  const driver = spawn("tauri-driver", ["--port", String(port), "--native-port", String(nativePort)], {
    env: {
      ...process.env,
      XDG_DATA_HOME: join(home, "data"),
      XDG_CONFIG_HOME: join(home, "config"),
      XDG_CACHE_HOME: join(home, "cache"),
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    await waitForPort(port, 15000);
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
      async close() {
        await browser.deleteSession().catch(() => {});
        driver.kill("SIGTERM");
        await new Promise((r) => setTimeout(r, 300));
      },
    };
  } catch (error) {
    driver.kill("SIGKILL");
    throw error;
  }
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
