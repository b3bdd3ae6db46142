// A scripted model server on 127.0.0.1 speaking the Anthropic Messages API over SSE, as the app's
// Anthropic provider expects it (the base URL is http://127.0.0.1:PORT; the client adds
// /v1/messages). Each request gets the next scripted turn. A turn can hold its stream part-way
// until the test releases it, so a test can look at the window while a tool call is still
// streaming. Every request body is kept for assertions.
//
// Several sessions at once (tasks) each follow a script of their own: `route(key, ...turns)`
// queues turns for the requests whose first user message contains `key`, whatever order the
// sessions ask in; a request that matches no route gets the next turn of `script`.
import { createServer } from "node:http";

function sse(event, data) {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** The text the user wrote in the request's first user message (text blocks only). */
function firstUserText(request) {
  const first = (request.messages ?? []).find((m) => m.role === "user");
  if (!first) return "";
  if (typeof first.content === "string") return first.content;
  if (!Array.isArray(first.content)) return "";
  return first.content.filter((b) => b.type === "text").map((b) => b.text).join("\n");
}

/**
 * A turn: `{ text?, tool?: { name, input }, chunk?: number, delayMs?: number, holdAt?: number,
 * dropAfterText?: boolean, holdFirst?: boolean, until?: Promise }`. With `until`, the answer
 * waits for that promise before its first block (the request stays open, the session runs). The tool's JSON input is streamed in `chunk`-byte
 * pieces `delayMs` apart; with `holdAt` (a fraction 0..1 of the JSON), the stream pauses there
 * until `release()`; with `holdFirst`, the answer waits for `release()` before its first block.
 * With `dropAfterText` the connection is cut once the text is sent, in the middle of the answer.
 */
export async function startModel() {
  const turns = [];
  const requests = [];
  /** key -> { turns, requests } */
  const routes = new Map();
  let held = null;
  let lastEnd = 0;
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const part of req) body += part;
    if (req.method !== "POST" || !req.url.endsWith("/v1/messages")) {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(body);
    requests.push(request);
    const said = firstUserText(request);
    const route = [...routes.entries()].find(([key]) => said.includes(key));
    let turn;
    if (route) {
      route[1].requests.push(request);
      turn = route[1].turns.shift() ?? { text: `(no more scripted turns for ${route[0]})` };
    } else {
      turn = turns.shift() ?? { text: "(no more scripted turns)" };
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const write = (event, data) => res.write(sse(event, data));
    write("message_start", {
      type: "message_start",
      message: { id: `msg_${requests.length}`, type: "message", role: "assistant", model: "claude-e2e", content: [], stop_reason: null, usage: { input_tokens: 120, output_tokens: 1 } },
    });
    let index = 0;
    if (turn.until) await turn.until;
    if (turn.holdFirst) {
      await new Promise((resolve) => {
        held = resolve;
      });
      held = null;
    }
    if (turn.text) {
      write("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const word of turn.text.split(/(?<= )/)) {
        write("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: word } });
        await sleep(15);
      }
      if (turn.dropAfterText) {
        res.destroy();
        lastEnd = Date.now();
        return;
      }
      write("content_block_stop", { type: "content_block_stop", index });
      index += 1;
    }
    if (turn.tool) {
      const id = `toolu_${requests.length}`;
      write("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id, name: turn.tool.name, input: {} } });
      const json = JSON.stringify(turn.tool.input);
      const chunk = turn.chunk ?? 24;
      const holdAt = turn.holdAt === undefined ? -1 : Math.floor(json.length * turn.holdAt);
      for (let at = 0; at < json.length; at += chunk) {
        if (holdAt >= at && holdAt < at + chunk) {
          await new Promise((resolve) => {
            held = resolve;
          });
          held = null;
        }
        write("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(at, at + chunk) } });
        await sleep(turn.delayMs ?? 5);
      }
      write("content_block_stop", { type: "content_block_stop", index });
    }
    write("message_delta", { type: "message_delta", delta: { stop_reason: turn.tool ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 42 } });
    write("message_stop", { type: "message_stop" });
    res.end();
    lastEnd = Date.now();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Queues turns for the next requests. */
    script(...next) {
      turns.push(...next);
    },
    /** Queues turns for the requests whose first user message contains `key`. */
    route(key, ...next) {
      if (!routes.has(key)) routes.set(key, { turns: [], requests: [] });
      routes.get(key).turns.push(...next);
    },
    /** The requests routed by `key`, in order. */
    requestsFor: (key) => routes.get(key)?.requests ?? [],
    /** The turns still queued for `key`. */
    pendingFor: (key) => routes.get(key)?.turns.length ?? 0,
    /** True while a turn is paused at its `holdAt`. */
    get holding() {
      return held !== null;
    },
    release() {
      if (held) held();
    },
    pending: () => turns.length,
    /** When the last response was finished (Date.now()). */
    get lastEnd() {
      return lastEnd;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
