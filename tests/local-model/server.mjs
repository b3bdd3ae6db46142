#!/usr/bin/env node
// A small OpenAI-compatible chat server around a real GGUF model, through node-llama-cpp's
// prebuilt llama.cpp, for Foreman's tests against a real local model (our own code; see README.md).
//
// usage: node server.mjs --modules DIR --model FILE [--port 0] [--max-tokens N] [--context N] [--threads N]
//                          [--system merge|drop]
//   --modules      the folder holding node_modules/node-llama-cpp (tests/local-model/fetch.sh's cache)
//   --model        the .gguf file
//   --port         0 (the default) takes a free port
//   --max-tokens   the server's own cap on an answer, whatever the request asks (like llama.cpp's -n)
//   --context      the context window in tokens
//   --system       merge (the default): system messages go where the model's chat template puts
//                  them (Gemma's: at the top of the first user turn); drop: left out, as Gemma's
//                  original template (which refuses a system role) makes some servers do
//   --threads      CPU threads (1 by default: on a busy machine llama.cpp's threads spin against each
//                  other, and 4 threads on 2 shared cores were 50 times slower than 1)
// Prints one line `listening http://127.0.0.1:PORT/v1` on stdout once the model is loaded; logs
// one line per request on stderr (what the model did, why it stopped, how long it took).
//
// The wire: GET /v1/models; POST /v1/chat/completions, streamed (SSE `data:` chunks, a usage chunk
// when `stream_options.include_usage`, `data: [DONE]`) or not. It honours `max_tokens` /
// `max_completion_tokens`, `stop`, `temperature` (0, the default here, is greedy), `seed`,
// `top_p`. Tools are ignored (no native tool calls), as by many local servers; an assistant's
// tool calls and tool results become text. A client that disconnects aborts the generation at once.

import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: opts } = parseArgs({
  options: {
    modules: { type: "string" },
    model: { type: "string" },
    port: { type: "string", default: "0" },
    "max-tokens": { type: "string", default: "2048" },
    context: { type: "string", default: "8192" },
    threads: { type: "string", default: "1" },
    system: { type: "string", default: "merge" },
  },
});
if (!opts.modules || !opts.model) {
  console.error("usage: node server.mjs --modules DIR --model FILE [--port N] [--max-tokens N] [--context N]");
  process.exit(2);
}
const maxTokensCap = Number(opts["max-tokens"]);
const modelId = path.basename(opts.model).replace(/\.gguf$/, "");

const llamaCpp = await import(
  pathToFileURL(path.join(opts.modules, "node_modules", "node-llama-cpp", "dist", "index.js")).href
);
// Prebuilt binaries only: never download or compile llama.cpp.
const llama = await llamaCpp.getLlama({ build: "never", gpu: false, logLevel: "error" });
const model = await llama.loadModel({ modelPath: opts.model });
const context = await model.createContext({ contextSize: Number(opts.context), threads: Number(opts.threads) });
const sequence = context.getSequence();
const chat = new llamaCpp.LlamaChat({ contextSequence: sequence });

/** The text of an OpenAI message's `content`: a string, null, or an array of parts. */
function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && part.type === "text" ? part.text : "")).join("");
  }
  return "";
}

/** OpenAI messages as node-llama-cpp's chat history; consecutive user turns are joined. */
function chatHistory(messages) {
  const history = [];
  const push = (item) => {
    const last = history[history.length - 1];
    if (last && last.type === "user" && item.type === "user") last.text += "\n\n" + item.text;
    else if (last && last.type === "model" && item.type === "model") last.response.push(item.response[0]);
    else history.push(item);
  };
  for (const m of messages) {
    const text = contentText(m.content);
    if (m.role === "system" || m.role === "developer") {
      if (opts.system !== "drop") push({ type: "system", text });
    }
    else if (m.role === "user") push({ type: "user", text });
    else if (m.role === "assistant") {
      const calls = (m.tool_calls || []).map(
        (c) => `{"action": ${JSON.stringify(c.function?.name)}, "arguments": ${c.function?.arguments}}`,
      );
      push({ type: "model", response: [[text, ...calls].filter(Boolean).join("\n")] });
    } else if (m.role === "tool") push({ type: "user", text: `Result of ${m.tool_call_id}:\n${text}` });
  }
  // The history ends with the turn the model answers: an empty model response.
  history.push({ type: "model", response: [] });
  return history;
}

function sendJson(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

// One context sequence: requests take turns.
let queue = Promise.resolve();
let served = 0;

async function complete(req, res, body) {
  const n = ++served;
  const id = `chatcmpl-${n}`;
  const created = Math.floor(Date.now() / 1000);
  const stream = body.stream === true;
  const asked = body.max_completion_tokens ?? body.max_tokens;
  const maxTokens = Math.min(maxTokensCap, Number.isInteger(asked) && asked > 0 ? asked : maxTokensCap);
  const stop = body.stop == null ? [] : Array.isArray(body.stop) ? body.stop : [body.stop];
  const temperature = typeof body.temperature === "number" ? body.temperature : 0;
  const abort = new AbortController();
  let abortedAt = 0;
  res.on("close", () => {
    if (!res.writableFinished) {
      abortedAt = performance.now();
      abort.abort(new Error("the client disconnected"));
    }
  });
  const chunk = (delta, finish) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: modelId,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const write = (value) => res.write(`data: ${JSON.stringify(value)}\n\n`);
  if (stream) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    write(chunk({ role: "assistant", content: "" }, null));
  }
  const started = performance.now();
  let completionTokens = 0;
  let firstTokenAt = 0;
  let text = "";
  let result;
  try {
    result = await chat.generateResponse(chatHistory(body.messages || []), {
      maxTokens,
      temperature,
      seed: Number.isInteger(body.seed) ? body.seed : undefined,
      topP: typeof body.top_p === "number" ? body.top_p : undefined,
      customStopTriggers: stop.length > 0 ? stop : undefined,
      signal: abort.signal,
      stopOnAbortSignal: true,
      onToken: (tokens) => {
        completionTokens += tokens.length;
        if (!firstTokenAt) firstTokenAt = performance.now();
      },
      onTextChunk: (piece) => {
        text += piece;
        if (stream && !abort.signal.aborted) write(chunk({ content: piece }, null));
      },
    });
  } catch (error) {
    console.error(`request ${n}: failed: ${error?.message ?? error}`);
    if (res.writableEnded || abort.signal.aborted) return;
    if (stream) {
      write({ error: { message: String(error?.message ?? error), type: "server_error" } });
      res.end();
    } else sendJson(res, 500, { error: { message: String(error?.message ?? error), type: "server_error" } });
    return;
  }
  const reason = result.metadata.stopReason;
  const finish = reason === "maxTokens" ? "length" : "stop";
  const promptTokens = Math.max(0, sequence.contextTokens.length - completionTokens);
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const ended = performance.now();
  console.error(
    `request ${n}: ${completionTokens} tokens, ${reason}` +
      (abortedAt ? ` (generation ended ${(ended - abortedAt).toFixed(1)} ms after the client left)` : "") +
      `, first token after ${firstTokenAt ? (firstTokenAt - started).toFixed(0) : "-"} ms, ${(ended - started).toFixed(0)} ms in all: ` +
      JSON.stringify(text.length > 300 ? text.slice(0, 300) + "…" : text),
  );
  if (abort.signal.aborted) return;
  if (stream) {
    write(chunk({}, finish));
    if (body.stream_options?.include_usage) write({ id, object: "chat.completion.chunk", created, model: modelId, choices: [], usage });
    res.write("data: [DONE]\n\n");
    res.end();
  } else {
    sendJson(res, 200, {
      id,
      object: "chat.completion",
      created,
      model: modelId,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: finish }],
      usage,
    });
  }
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  if (req.method === "GET" && (url.pathname === "/v1/models" || url.pathname === "/models")) {
    sendJson(res, 200, { object: "list", data: [{ id: modelId, object: "model", created: 0, owned_by: "local" }] });
    return;
  }
  if (req.method === "POST" && (url.pathname === "/v1/chat/completions" || url.pathname === "/chat/completions")) {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        sendJson(res, 400, { error: { message: "the body is not JSON", type: "invalid_request_error" } });
        return;
      }
      if (!Array.isArray(body.messages) || body.messages.length === 0) {
        sendJson(res, 400, { error: { message: "`messages` must be a non-empty array", type: "invalid_request_error" } });
        return;
      }
      // A failed request must not stop the ones behind it.
      queue = queue
        .then(() => (res.destroyed ? undefined : complete(req, res, body)))
        .catch((error) => console.error(`a request failed: ${error?.stack ?? error}`));
    });
    return;
  }
  sendJson(res, 404, { error: { message: `no route ${req.method} ${url.pathname}`, type: "not_found" } });
});

server.listen(Number(opts.port), "127.0.0.1", () => {
  console.log(`listening http://127.0.0.1:${server.address().port}/v1`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    server.close();
    await llama.dispose();
    process.exit(0);
  });
}
