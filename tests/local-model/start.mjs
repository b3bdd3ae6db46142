// Starts server.mjs on a free port of 127.0.0.1 for a Node test (the e2e specs), with the model
// and node-llama-cpp that `make local-model` put in the cache folder named by FOREMAN_LOCAL_MODEL.
// Without the variable it throws and says what to run, unless FOREMAN_SKIP_LOCAL_MODEL is set
// outside CI (then it returns null and the caller skips).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

export const MODEL_FILE = "gemma-3-270m-q4_k_m.gguf";

/** The cache folder, or null when the developer opted out. */
export function localModelDir() {
  const dir = process.env.FOREMAN_LOCAL_MODEL;
  if (dir) return dir;
  const skip = !!process.env.FOREMAN_SKIP_LOCAL_MODEL && process.env.FOREMAN_SKIP_LOCAL_MODEL !== "0";
  const ci = !!process.env.CI && process.env.CI !== "false";
  if (skip && !ci) return null;
  throw new Error(
    "FOREMAN_LOCAL_MODEL is not set: run `make local-model` (it prints the folder) and set it, or run " +
      "the tests through `make test`; set FOREMAN_SKIP_LOCAL_MODEL=1 to skip them on your machine",
  );
}

/**
 * Starts the server (`maxTokens`: its own cap per answer; `system`: merge or drop, see
 * server.mjs) and resolves once the model is loaded: `{ url, log, close }`, or null when skipped.
 */
export async function startLocalModel({ maxTokens = 2048, system = "merge" } = {}) {
  const dir = localModelDir();
  if (!dir) return null;
  const model = join(dir, MODEL_FILE);
  if (!existsSync(model)) throw new Error(`${model} is missing: run \`make local-model\``);
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, "server.mjs"), "--modules", dir, "--model", model, "--port", "0",
      "--max-tokens", String(maxTokens), "--system", system],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const log = [];
  createInterface({ input: child.stderr }).on("line", (line) => {
    log.push(line);
    console.error(`local model: ${line}`);
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the model server did not start within 120 s")), 120000);
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      if (line.startsWith("listening ")) resolve(line.slice("listening ".length));
      else reject(new Error(`unexpected first line: ${line}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the model server ended (${code}): ${log.join("\n")}`));
    });
  });
  return {
    url,
    log,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
