#!/usr/bin/env python3
"""A scripted ACP agent (protocol v1, JSON-RPC lines on stdio), for Foreman's tests.

It behaves as a hostile or clumsy agent would, chosen by the prompt's first word; the rest of
the prompt are the scenario's arguments. Whatever it observes it says back as an agent message
(`RESULT <key> <value>` lines), so a test reads its findings from Foreman's events. Only the
standard library: it runs wherever python3 does.

Scenarios:
  edit FILE NEW           a streamed Edit call, permission with a diff, fs/write_text_file on
                          allow
  fs-write PATH TEXT      fs/write_text_file PATH, reporting the answer
  self-write PATH         the agent itself writes PATH (outside the place, it should fail)
  fs-read PATH            fs/read_text_file PATH, reporting the answer
  self-read PATH          the agent itself reads PATH
  terminal CMD...         terminal/create `sh -c CMD`, wait, report output and exit code
  kill-parent             kill -9 of its parent and its parent's parent
  exit CODE               writes to stderr and exits mid-turn
  garbage                 a line that is not JSON-RPC, then an answer
  flood N                 N message chunks in a burst
  ask-run CMD...          asks for permission to run CMD itself, reporting the answer
  wait-permission         asks for permission and waits for the answer (Stop answers it)
  calls N [GAP_MS]        N read calls reported GAP_MS apart, each completed at once; each
                          call's input says when it was sent (`sent_at`, Unix seconds)
  plan                    a plan of three entries
  settings                reports its model and its mode as they are now
  wait-model VALUE        waits (up to 20 s) for its model to become VALUE, then reports it
  /greet WORDS            its own command (listed in `available_commands_update`): reports
                          the prompt's text as it arrived

Its settings are config options (a model, in two groups, and a mode); `session/set_mode` and
`session/set_config_option` change them.
"""
import json
import os
import signal
import sys
import threading
import time

_next_id = [1000]
_waiting = {}
_lock = threading.Lock()
_cancelled = threading.Event()
SESSION = "scripted-session-1"
_settings = {"model": "small", "mode": "auto"}


def config_options():
    return [
        {"id": "model", "name": "Model", "category": "model", "type": "select",
         "currentValue": _settings["model"],
         "options": [
             {"group": "fast", "name": "Fast", "options": [
                 {"value": "small", "name": "Small", "description": "Quick and cheap"}]},
             {"group": "strong", "name": "Strong", "options": [
                 {"value": "large", "name": "Large", "description": "Slow and thorough"}]}]},
        {"id": "mode", "name": "Mode", "category": "mode", "type": "select",
         "currentValue": _settings["mode"],
         "options": [{"value": "auto", "name": "Auto"}, {"value": "default", "name": "Ask"}]},
        {"id": "fast", "name": "Fast mode", "type": "boolean", "currentValue": False},
    ]


def send(message):
    with _lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def log(text):
    sys.stderr.write(f"scripted-agent: {text}\n")
    sys.stderr.flush()


def request(method, params):
    """Sends a request and waits for its answer: (result, error)."""
    with _lock:
        _next_id[0] += 1
        rid = _next_id[0]
        event = threading.Event()
        _waiting[rid] = [event, None]
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    event.wait()
    answer = _waiting.pop(rid)[1]
    return answer.get("result"), answer.get("error")


def update(update):
    send({"jsonrpc": "2.0", "method": "session/update",
          "params": {"sessionId": SESSION, "update": update}})


def say(text):
    update({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}})


def result(key, value):
    say(f"RESULT {key} {json.dumps(value)}\n")


def tool_call(tid, title, kind, raw=None, **more):
    fields = {"sessionUpdate": "tool_call", "toolCallId": tid, "title": title, "kind": kind,
              "status": "pending"}
    if raw is not None:
        fields["rawInput"] = raw
    fields.update(more)
    update(fields)


def tool_update(tid, **fields):
    fields.update({"sessionUpdate": "tool_call_update", "toolCallId": tid})
    update(fields)


def permission(tid, title, kind, raw, content=None):
    options = [
        {"optionId": "opt-allow", "name": "Allow", "kind": "allow_once"},
        {"optionId": "opt-always", "name": "Always", "kind": "allow_always"},
        {"optionId": "opt-reject", "name": "Reject", "kind": "reject_once"},
    ]
    call = {"toolCallId": tid, "title": title, "kind": kind, "rawInput": raw}
    if content is not None:
        call["content"] = content
    res, err = request("session/request_permission",
                       {"sessionId": SESSION, "toolCall": call, "options": options})
    if err:
        return "error"
    outcome = res["outcome"]
    if outcome["outcome"] == "cancelled":
        return "cancelled"
    return {"opt-allow": "allow", "opt-always": "always", "opt-reject": "reject"}[outcome["optionId"]]


def scenario(words, cwd):
    name, args = words[0], words[1:]
    if name == "edit":
        path = os.path.join(cwd, args[0])
        new = " ".join(args[1:]) + "\n"
        old = open(path).read() if os.path.exists(path) else None
        tool_call("edit-1", f"Edit {args[0]}", "edit", {})
        tool_update("edit-1", rawInput={"file_path": path})
        tool_update("edit-1", rawInput={"file_path": path, "new_string": new[:3]})
        tool_update("edit-1", rawInput={"file_path": path, "new_string": new})
        answer = permission("edit-1", f"Edit {args[0]}", "edit",
                            {"file_path": path, "new_string": new},
                            [{"type": "diff", "path": path, "oldText": old, "newText": new}])
        result("permission", answer)
        if answer in ("allow", "always"):
            tool_update("edit-1", status="in_progress")
            res, err = request("fs/write_text_file",
                               {"sessionId": SESSION, "path": path, "content": new})
            result("write", "error" if err else "ok")
            if err:
                result("write-error", err.get("message"))
            tool_update("edit-1", status="failed" if err else "completed",
                        content=[{"type": "diff", "path": path, "oldText": old, "newText": new}])
        else:
            tool_update("edit-1", status="failed")
    elif name == "fs-write":
        res, err = request("fs/write_text_file",
                           {"sessionId": SESSION, "path": args[0], "content": " ".join(args[1:])})
        result("fs-write", "error" if err else "ok")
        if err:
            result("fs-write-error", err.get("message"))
    elif name == "self-write":
        try:
            with open(args[0], "w") as f:
                f.write("written by the agent itself\n")
            result("self-write", "ok")
        except OSError as e:
            result("self-write", f"error {e.strerror}")
    elif name == "fs-read":
        res, err = request("fs/read_text_file", {"sessionId": SESSION, "path": args[0]})
        result("fs-read", "error" if err else "ok")
        result("fs-read-content", (res or {}).get("content", ""))
        if err:
            result("fs-read-error", err.get("message"))
    elif name == "self-read":
        try:
            result("self-read-content", open(args[0]).read())
        except OSError as e:
            result("self-read", f"error {e.strerror}")
    elif name == "terminal":
        line = " ".join(args)
        tool_call("term-1", "Run a command", "execute", {"command": line})
        res, err = request("terminal/create", {"sessionId": SESSION, "command": "sh",
                                               "args": ["-c", line], "outputByteLimit": 4096})
        if err:
            result("terminal", "error")
            result("terminal-error", err.get("message"))
            tool_update("term-1", status="failed")
            return
        tid = res["terminalId"]
        tool_update("term-1", status="in_progress", content=[{"type": "terminal", "terminalId": tid}])
        exited, _ = request("terminal/wait_for_exit", {"sessionId": SESSION, "terminalId": tid})
        out, _ = request("terminal/output", {"sessionId": SESSION, "terminalId": tid})
        request("terminal/release", {"sessionId": SESSION, "terminalId": tid})
        result("terminal", "ok")
        result("terminal-exit", exited.get("exitCode"))
        result("terminal-output", out.get("output"))
        tool_update("term-1", status="completed")
    elif name == "kill-parent":
        parent = os.getppid()
        try:
            with open(f"/proc/{parent}/stat") as f:
                grand = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            grand = None
        for pid in (parent, grand):
            if pid is None or pid <= 1:
                continue
            try:
                os.kill(pid, signal.SIGKILL)
                result(f"kill-{pid == parent and 'parent' or 'grandparent'}", "ok")
            except OSError as e:
                result(f"kill-{pid == parent and 'parent' or 'grandparent'}", f"error {e.strerror}")
    elif name == "exit":
        say("about to go\n")
        log("boom: exiting on purpose")
        sys.stdout.flush()
        os._exit(int(args[0]))
    elif name == "garbage":
        with _lock:
            sys.stdout.write("this line is not JSON-RPC {\n")
            sys.stdout.flush()
        say("still here\n")
    elif name == "flood":
        for _ in range(int(args[0])):
            say("x")
        say("\nflood done\n")
    elif name == "ask-run":
        line = " ".join(args)
        tool_call("run-1", "Run a command", "execute", {"command": line})
        answer = permission("run-1", "Run a command", "execute", {"command": line})
        result("permission", answer)
        tool_update("run-1", status="completed" if answer in ("allow", "always") else "failed")
    elif name == "wait-permission":
        tool_call("wait-1", "Delete everything", "delete", {"path": "/"})
        answer = permission("wait-1", "Delete everything", "delete", {"path": "/"})
        result("permission", answer)
        if answer == "cancelled":
            _cancelled.wait(5)
            return "cancelled"
    elif name == "calls":
        gap = float(args[1]) / 1000 if len(args) > 1 else 0
        for i in range(int(args[0])):
            tool_call(f"read-{i}", f"Read f{i}.txt", "read", {"path": f"f{i}.txt", "sent_at": time.time()})
            tool_update(f"read-{i}", status="completed")
            time.sleep(gap)
        say("calls done\n")
    elif name == "settings":
        result("model", _settings["model"])
        result("mode", _settings["mode"])
    elif name == "wait-model":
        deadline = time.time() + 20
        while _settings["model"] != args[0] and time.time() < deadline:
            time.sleep(0.05)
        result("model", _settings["model"])
    elif name == "/greet":
        result("command", " ".join(words))
    elif name == "plan":
        update({"sessionUpdate": "plan", "entries": [
            {"content": "read", "priority": "high", "status": "completed"},
            {"content": "change", "priority": "high", "status": "in_progress"},
            {"content": "test", "priority": "low", "status": "pending"},
        ]})
    else:
        say(f"unknown scenario {name}\n")
    return "cancelled" if _cancelled.is_set() else "end_turn"


def prompt_text(prompt):
    return "".join(b.get("text", "") for b in prompt if b.get("type") == "text")


def run_prompt(rid, params, cwd):
    words = prompt_text(params["prompt"]).split()
    stop = scenario(words or ["none"], cwd) or "end_turn"
    usage = {"inputTokens": 12, "outputTokens": 3, "totalTokens": 15}
    send({"jsonrpc": "2.0", "id": rid, "result": {"stopReason": stop, "usage": usage}})


def main():
    cwd = os.getcwd()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        method = message.get("method")
        if method and os.environ.get("SCRIPTED_AGENT_LOG"):
            with open(os.environ["SCRIPTED_AGENT_LOG"], "a") as f:
                f.write(json.dumps({"method": method}) + "\n")
        if method is None:
            entry = _waiting.get(message.get("id"))
            if entry:
                entry[1] = message
                entry[0].set()
            continue
        rid = message.get("id")
        params = message.get("params") or {}
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": rid, "result": {
                "protocolVersion": 1,
                "agentCapabilities": {"loadSession": True,
                                      "promptCapabilities": {"image": False,
                                                             "embeddedContext": True}},
                "authMethods": [],
                "agentInfo": {"name": "scripted-agent", "version": "1.0.0"}}})
        elif method in ("session/new", "session/load"):
            cwd = params.get("cwd", cwd)
            send({"jsonrpc": "2.0", "id": rid, "result": {
                "sessionId": SESSION,
                "modes": {"currentModeId": _settings["mode"], "availableModes": [
                    {"id": "auto", "name": "Auto"}, {"id": "default", "name": "Ask"}]},
                "configOptions": config_options()}})
            update({"sessionUpdate": "available_commands_update", "availableCommands": [
                {"name": "greet", "description": "Greets whoever is named",
                 "input": {"hint": "name"}}]})
        elif method == "session/set_mode":
            _settings["mode"] = params["modeId"]
            send({"jsonrpc": "2.0", "id": rid, "result": {}})
            update({"sessionUpdate": "current_mode_update", "currentModeId": params["modeId"]})
        elif method == "session/set_config_option":
            known = {o["id"]: o for o in config_options()}
            option, value = known.get(params.get("configId")), params.get("value")
            values = [v["value"] for g in (option or {}).get("options", [])
                      for v in g.get("options", [g])]
            if option is None or value not in values:
                send({"jsonrpc": "2.0", "id": rid,
                      "error": {"code": -32602, "message": f"no value {value}"}})
            else:
                _settings[params["configId"]] = value
                send({"jsonrpc": "2.0", "id": rid,
                      "result": {"configOptions": config_options()}})
        elif method == "session/prompt":
            _cancelled.clear()
            threading.Thread(target=run_prompt, args=(rid, params, cwd), daemon=True).start()
        elif method == "session/cancel":
            _cancelled.set()
        elif rid is not None:
            send({"jsonrpc": "2.0", "id": rid,
                  "error": {"code": -32601, "message": f"no method {method}"}})


if __name__ == "__main__":
    main()
