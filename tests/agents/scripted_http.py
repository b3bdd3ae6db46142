"""What the scripted model servers of tests/agents share: the JSON and server-sent-event replies
and the command line (--script, --port-file, --log). Standard library only."""
import argparse
import json
import os
from http.server import ThreadingHTTPServer


def reply_json(handler, value):
    data = json.dumps(value).encode()
    handler.send_response(200)
    handler.send_header("content-type", "application/json")
    handler.send_header("content-length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def reply_sse(handler, frames):
    """Streams `frames` (already-formatted SSE frames, bytes) as a chunked response."""
    handler.send_response(200)
    handler.send_header("content-type", "text/event-stream")
    handler.send_header("cache-control", "no-cache")
    handler.send_header("transfer-encoding", "chunked")
    handler.end_headers()
    for chunk in frames:
        handler.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        handler.wfile.flush()
    handler.wfile.write(b"0\r\n\r\n")
    handler.wfile.flush()


def serve(handler_class, state):
    """Reads the command line into `state` ("turns", "log"), serves on 127.0.0.1 and writes the
    port to the port file once it listens."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    with open(args.script) as f:
        state["turns"] = json.load(f)
    state["log"] = args.log
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_class)
    with open(args.port_file + ".part", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".part", args.port_file)
    server.serve_forever()
