#!/usr/bin/env python3
"""A scripted OpenAI Responses server on 127.0.0.1, for running the real Codex (through its ACP
adapter, codex-acp) offline in Foreman's tests. Standard library only.

  fake_openai.py --script turns.json --port-file port.txt --log requests.jsonl

Codex speaks only the Responses API: `POST /v1/responses`, streamed as server-sent events. Each
request that carries tools takes the next turn of the script, a JSON list whose items are
{"text": "..."}, {"tool": NAME, "input": {...}} (a function call, its arguments streamed in
fragments of a few bytes) or {"custom": NAME, "input": "..."} (a free-form tool call, such as
Codex's `apply_patch`); when the script is used up it answers "done". A request without tools
(a title or a summary) is answered with plain text. `GET /v1/models` answers an empty list.
Every request is logged as one JSON line: its path, the tool names it offered, the tool outputs
it carried and the key it was sent with.
"""
import json
import threading
from http.server import BaseHTTPRequestHandler

from scripted_http import reply_json, reply_sse, serve

LOCK = threading.Lock()
STATE = {"turns": [], "log": None, "n": 0}


def tool_name(tool):
    return tool.get("name") or tool.get("type")


def tool_outputs(body):
    items = body.get("input") or []
    return [i for i in items if isinstance(i, dict)
            and i.get("type") in ("function_call_output", "custom_tool_call_output")]


def events(turn, model):
    STATE["n"] += 1
    rid = f"resp_{STATE['n']}"
    seq = iter(range(1_000_000))

    def ev(kind, **data):
        return kind, {"type": kind, "sequence_number": next(seq), **data}

    response = {"id": rid, "object": "response", "status": "in_progress", "model": model, "output": []}
    yield ev("response.created", response=response)
    if "tool" in turn or "custom" in turn:
        custom = "custom" in turn
        call_id = f"call_{STATE['n']:04d}"
        item = {"id": f"fc_{STATE['n']}", "type": "custom_tool_call" if custom else "function_call",
                "status": "in_progress", "call_id": call_id,
                "name": turn["custom"] if custom else turn["tool"]}
        raw = turn["input"] if custom else json.dumps(turn["input"])
        yield ev("response.output_item.added", output_index=0, item={**item, ("input" if custom else "arguments"): ""})
        delta = "response.custom_tool_call_input.delta" if custom else "response.function_call_arguments.delta"
        for i in range(0, len(raw), 7):
            yield ev(delta, item_id=item["id"], output_index=0, delta=raw[i:i + 7])
        done = {**item, "status": "completed", ("input" if custom else "arguments"): raw}
        yield ev("response.output_item.done", output_index=0, item=done)
    else:
        text = turn.get("text", "")
        item = {"id": f"msg_{STATE['n']}", "type": "message", "role": "assistant", "status": "in_progress",
                "content": []}
        yield ev("response.output_item.added", output_index=0, item=item)
        yield ev("response.content_part.added", item_id=item["id"], output_index=0, content_index=0,
                 part={"type": "output_text", "text": "", "annotations": []})
        for i in range(0, len(text), 5):
            yield ev("response.output_text.delta", item_id=item["id"], output_index=0, content_index=0,
                     delta=text[i:i + 5])
        done = {**item, "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}
        yield ev("response.output_item.done", output_index=0, item=done)
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
    yield ev("response.completed", response={**response, "status": "completed", "output": [done],
                                             "usage": usage})


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def log(self, entry):
        with open(STATE["log"], "a") as f:
            f.write(json.dumps(entry) + "\n")

    def do_GET(self):
        path = self.path.split("?")[0]
        with LOCK:
            self.log({"method": "GET", "path": path})
        if path.endswith("/models"):
            return self.reply_json({"object": "list", "data": [], "models": []})
        self.send_response(404)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        path = self.path.split("?")[0]
        if not path.endswith("/responses"):
            with LOCK:
                self.log({"method": "POST", "path": path})
            self.send_response(404)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        main = bool(body.get("tools"))
        with LOCK:
            if main:
                turn = STATE["turns"].pop(0) if STATE["turns"] else {"text": "done"}
            else:
                turn = {"text": "Scripted"}
            auth = self.headers.get("authorization") or ""
            self.log({
                "method": "POST",
                "path": path,
                "kind": "main" if main else "other",
                "tools": [tool_name(t) for t in body.get("tools") or []],
                "tool_outputs": tool_outputs(body),
                "answer": turn,
                "api_key": auth.removeprefix("Bearer "),
            })
            stream = list(events(turn, body.get("model", "gpt")))
        reply_sse(self, (f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in stream))

    def reply_json(self, value):
        reply_json(self, value)


def main():
    serve(Handler, STATE)


if __name__ == "__main__":
    main()
