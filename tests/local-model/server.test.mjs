// The wire of server.mjs, against the real model: what Foreman's OpenAI-compatible provider and
// its model list rely on. Run with `node --test tests/local-model/server.test.mjs` (make rust-test does).
import { strict as assert } from "node:assert";
import { after, before, test } from "node:test";
import { startLocalModel } from "./start.mjs";

let server;

before(async () => {
  server = await startLocalModel({ maxTokens: 12, system: "drop" });
});

after(async () => {
  await server?.close();
});

const post = (body, init = {}) =>
  fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...init,
  });

/** The `data:` payloads of an SSE body. */
const events = (text) =>
  text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length));

test("the model list names the model", async (t) => {
  if (!server) return t.skip("FOREMAN_SKIP_LOCAL_MODEL is set");
  const list = await (await fetch(`${server.url}/models`)).json();
  assert.deepEqual(
    list.data.map((m) => m.id),
    ["gemma-3-270m-q4_k_m"],
  );
});

test("a streamed answer: deltas, a finish reason, usage, then [DONE]", async (t) => {
  if (!server) return t.skip("FOREMAN_SKIP_LOCAL_MODEL is set");
  const res = await post({
    model: "m",
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: 8,
    messages: [{ role: "user", content: "Once upon a time" }],
  });
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const data = events(await res.text());
  assert.equal(data.at(-1), "[DONE]");
  const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
  const text = chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("");
  assert.ok(text.length > 0, "text came");
  assert.ok(chunks.filter((c) => c.choices[0]?.delta?.content).length > 1, "in more than one delta");
  assert.equal(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, "length");
  const usage = chunks.at(-1).usage;
  assert.equal(usage.completion_tokens, 8, "max_tokens is honoured");
  assert.ok(usage.prompt_tokens > 0);
});

test("greedy by default and seeded when sampling: the same request gives the same answer", async (t) => {
  if (!server) return t.skip("FOREMAN_SKIP_LOCAL_MODEL is set");
  const ask = async (extra) =>
    (await (await post({ model: "m", messages: [{ role: "user", content: "The weather today" }], ...extra })).json())
      .choices[0].message.content;
  assert.equal(await ask({}), await ask({}));
  assert.equal(await ask({ temperature: 1, seed: 7 }), await ask({ temperature: 1, seed: 7 }));
});

test("a stop sequence ends the answer before it", async (t) => {
  if (!server) return t.skip("FOREMAN_SKIP_LOCAL_MODEL is set");
  const free = await (await post({ model: "m", messages: [{ role: "user", content: "One, two, three," }] })).json();
  const words = free.choices[0].message.content.trim().split(/\s+/);
  assert.ok(words.length >= 2, `the model wrote ${JSON.stringify(free.choices[0].message.content)}`);
  const stop = words[1];
  const stopped = await (
    await post({ model: "m", stop: [stop], messages: [{ role: "user", content: "One, two, three," }] })
  ).json();
  assert.equal(stopped.choices[0].finish_reason, "stop");
  assert.ok(!stopped.choices[0].message.content.includes(stop), "the answer ends before the stop sequence");
});

test("a client that leaves aborts the generation", async (t) => {
  if (!server) return t.skip("FOREMAN_SKIP_LOCAL_MODEL is set");
  const before = server.log.length;
  const leave = new AbortController();
  const res = await post(
    { model: "m", stream: true, max_tokens: 2000, messages: [{ role: "user", content: "Tell me a story" }] },
    { signal: leave.signal },
  );
  const reader = res.body.getReader();
  await reader.read();
  await reader.read();
  leave.abort();
  const deadline = Date.now() + 10000;
  while (server.log.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const line = server.log.slice(before).find((l) => l.startsWith("request "));
  assert.match(line ?? "", /, abort \(generation ended [\d.]+ ms after the client left\)/);
});

test("a request without messages is refused", async (t) => {
  if (!server) return t.skip("FOREMAN_SKIP_LOCAL_MODEL is set");
  const res = await post({ model: "m", messages: [] });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /messages/);
});
