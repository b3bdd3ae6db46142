#!/usr/bin/env python3
"""A scripted Gemini API server on 127.0.0.1, for running the real Gemini CLI (`gemini --acp`)
offline in Foreman's tests (it reads the server from GOOGLE_GEMINI_BASE_URL). Standard library
only.

  fake_gemini.py --script turns.json --port-file port.txt --log requests.jsonl

Gemini CLI sends `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse` for its turns, and
`:generateContent` (one JSON answer) or `:countTokens` for its own checks. Each streamed request
that carries tools takes the next turn of the script, a JSON list whose items are
{"text": "..."} or {"tool": NAME, "input": {...}} (a function call); when the script is used up
it answers "done". Other requests are answered with plain text (a JSON check gets "{}" parts it
can read). Every request is logged as one JSON line: its path, the tool names it offered, the
function responses it carried and the key it was sent with.
"""
import json
import threading
from http.server import BaseHTTPRequestHandler

from scripted_http import reply_json, reply_sse, serve

LOCK = threading.Lock()
STATE = {"turns": [], "log": None}
USAGE = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}


def tool_names(body):
    names = []
    for tool in body.get("tools") or []:
        names.extend(f.get("name") for f in tool.get("functionDeclarations") or [])
    return names


def function_responses(body):
    contents = body.get("contents") or []
    if not contents:
        return []
    return [p["functionResponse"] for p in contents[-1].get("parts") or [] if "functionResponse" in p]


def chunks(turn):
    if "tool" in turn:
        yield {"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": turn["tool"], "args": turn["input"]}}]}, "index": 0}]}
        yield {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]},
                               "finishReason": "STOP", "index": 0}], "usageMetadata": USAGE}
        return
    text = turn.get("text", "")
    for i in range(0, len(text), 5):
        yield {"candidates": [{"content": {"role": "model", "parts": [{"text": text[i:i + 5]}]}, "index": 0}]}
    yield {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP",
                           "index": 0}], "usageMetadata": USAGE}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def log(self, entry):
        with open(STATE["log"], "a") as f:
            f.write(json.dumps(entry) + "\n")

    def do_GET(self):
        with LOCK:
            self.log({"method": "GET", "path": self.path})
        self.reply_json({"models": []})

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        path = self.path.split("?")[0]
        key = self.headers.get("x-goog-api-key") or ""
        if path.endswith(":countTokens"):
            return self.reply_json({"totalTokens": 10})
        streamed = path.endswith(":streamGenerateContent")
        main = streamed and bool(tool_names(body))
        with LOCK:
            if main:
                turn = STATE["turns"].pop(0) if STATE["turns"] else {"text": "done"}
            else:
                turn = {"text": "{}" if "responseSchema" in json.dumps(body.get("generationConfig") or {})
                        or "responseJsonSchema" in json.dumps(body.get("generationConfig") or {}) else "Scripted"}
            self.log({
                "method": "POST",
                "path": path,
                "kind": "main" if main else "other",
                "tools": tool_names(body),
                "function_responses": function_responses(body),
                "answer": turn,
                "api_key": key,
            })
        if not streamed:
            parts = [{"text": turn["text"]}]
            return self.reply_json({"candidates": [{"content": {"role": "model", "parts": parts},
                                                    "finishReason": "STOP", "index": 0}],
                                    "usageMetadata": USAGE})
        reply_sse(self, (f"data: {json.dumps(data)}\r\n\r\n".encode() for data in chunks(turn)))

    def reply_json(self, value):
        reply_json(self, value)


def main():
    serve(Handler, STATE)


if __name__ == "__main__":
    main()
