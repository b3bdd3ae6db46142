#!/usr/bin/env python3
"""A scripted Anthropic Messages server on 127.0.0.1, for running the real Claude Code (through
its ACP adapter) offline in Foreman's tests. Standard library only.

  fake_anthropic.py --script turns.json --port-file port.txt --log requests.jsonl

Claude Code sends three kinds of `POST /v1/messages?beta=true` (always streamed): the session's
title (no tools), a prompt suggestion after a turn ("SUGGESTION MODE"), and the main request,
which carries its tools. The title and suggestion are answered with plain text, at any time
(they run beside the main one, so the server is threaded). Each main request takes the next
turn of the script, a JSON list whose items are {"text": "..."} or {"tool": NAME, "input":
{...}}; when the script is used up it answers "done". A tool's input is streamed as
`input_json_delta` fragments of a few bytes, as the real API does. Every request is logged
as one JSON line: its kind, the tool names it offered, the tool results it carried and the key it
was sent with.
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {"turns": [], "log": None, "n": 0}


def kind_of(body):
    messages = body.get("messages") or []
    text = json.dumps(messages[-3:])
    if "SUGGESTION MODE" in text:
        return "suggestion"
    if not body.get("tools"):
        return "title"
    return "main"


def tool_results(body):
    messages = body.get("messages") or []
    if not messages or not isinstance(messages[-1].get("content"), list):
        return []
    return [b for b in messages[-1]["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]


def events(turn, model):
    STATE["n"] += 1
    mid = f"msg_{STATE['n']}"
    usage = {"input_tokens": 10, "output_tokens": 5}
    yield "message_start", {"type": "message_start", "message": {
        "id": mid, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": usage}}
    if "tool" in turn:
        tid = f"toolu_{STATE['n']:04d}"
        yield "content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
            "type": "tool_use", "id": tid, "name": turn["tool"], "input": {}}}
        raw = json.dumps(turn["input"])
        for i in range(0, len(raw), 7):
            yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                "type": "input_json_delta", "partial_json": raw[i:i + 7]}}
        stop = "tool_use"
    else:
        yield "content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
            "type": "text", "text": ""}}
        text = turn.get("text", "")
        for i in range(0, len(text), 5):
            yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                "type": "text_delta", "text": text[i:i + 5]}}
        stop = "end_turn"
    yield "content_block_stop", {"type": "content_block_stop", "index": 0}
    yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                            "usage": {"output_tokens": 5}}
    yield "message_stop", {"type": "message_stop"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            return self.reply_json({"input_tokens": 10})
        if not path.endswith("/v1/messages"):
            self.send_response(404)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        kind = kind_of(body)
        with LOCK:
            if kind == "main":
                turn = STATE["turns"].pop(0) if STATE["turns"] else {"text": "done"}
            else:
                turn = {"text": "Scripted" if kind == "title" else ""}
            with open(STATE["log"], "a") as f:
                f.write(json.dumps({
                    "kind": kind,
                    "tools": [t.get("name") for t in body.get("tools") or []],
                    "tool_results": tool_results(body),
                    "answer": turn,
                    "api_key": self.headers.get("x-api-key"),
                }) + "\n")
            stream = list(events(turn, body.get("model", "claude")))
        if not body.get("stream"):
            blocks = [{"type": "text", "text": turn.get("text", "")}] if "tool" not in turn else [
                {"type": "tool_use", "id": "toolu_x", "name": turn["tool"], "input": turn["input"]}]
            return self.reply_json({"id": "msg_x", "type": "message", "role": "assistant",
                                    "model": body.get("model"), "content": blocks,
                                    "stop_reason": "tool_use" if "tool" in turn else "end_turn",
                                    "usage": {"input_tokens": 10, "output_tokens": 5}})
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        for name, data in stream:
            chunk = f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
            self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def reply_json(self, value):
        data = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    with open(args.script) as f:
        STATE["turns"] = json.load(f)
    STATE["log"] = args.log
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".part", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(args.port_file + ".part", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
