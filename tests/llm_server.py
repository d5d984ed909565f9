"""A real OpenAI-compatible HTTP server on 127.0.0.1 that plays scripted model behaviour.

Tests queue what the next requests get: a reply (text or tool calls), an HTTP error
(with headers such as Retry-After), a response that hangs, a dropped connection, or a
body that is not JSON. A ``responder`` function can instead compute replies from the
request. Every request body is kept, so tests can check what the client sent (image
parts, tools, parameters).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


def reply(content: str | None = None, tool_calls: list[tuple[str, Any]] | None = None,
          prompt_tokens: int = 100, completion_tokens: int = 20) -> dict:
    """A chat.completion body; tool-call arguments given as objects are JSON-encoded,
    strings are sent as they are (so a test can send broken JSON)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {"id": f"call_{n}", "type": "function",
             "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
            for n, (name, args) in enumerate(tool_calls)]
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": "test-model",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}}


class Fault:
    def __init__(self, kind: str, status: int = 500, headers: dict | None = None, seconds: float = 0.0) -> None:
        self.kind, self.status, self.headers, self.seconds = kind, status, headers or {}, seconds


def http_error(status: int, **headers: str) -> Fault:
    return Fault("status", status, headers)


def hang(seconds: float) -> Fault:
    return Fault("hang", seconds=seconds)


DROP = Fault("drop")
GARBAGE = Fault("garbage")


class LoopbackLLM:
    """Start with ``with LoopbackLLM() as server:``; ``server.api_base`` is the URL."""

    def __init__(self, responder: Callable[[dict], dict | Fault] | None = None, delay: float = 0.0) -> None:
        self.queue: list[dict | Fault] = []
        self.requests: list[dict] = []
        self.times: list[float] = []
        self.responder = responder
        self.delay = delay
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None

    def push(self, *items: dict | Fault) -> None:
        with self.lock:
            self.queue.extend(items)

    @property
    def api_base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def _next(self, body: dict) -> dict | Fault:
        with self.lock:
            self.requests.append(body)
            self.times.append(time.monotonic())
            if self.queue:
                return self.queue.pop(0)
        if self.responder is not None:
            return self.responder(body)
        return reply("(no scripted reply)")

    def __enter__(self) -> "LoopbackLLM":
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body in separate sends would wait ~40 ms (Nagle + delayed ACK)
            wbufsize = 1 << 16  # ... and buffered, they go out together when the request is done

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - /stats: how many requests so far
                self._send(200, json.dumps({"requests": len(outer.requests)}).encode(), {})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                action = outer._next(body)
                if outer.delay:
                    time.sleep(outer.delay)
                if isinstance(action, Fault):
                    if action.kind == "drop":
                        self.connection.shutdown(socket.SHUT_RDWR)
                        self.connection.close()
                        return
                    if action.kind == "hang":
                        time.sleep(action.seconds)
                        action = Fault("status", 504)
                    if action.kind == "garbage":
                        return self._send(200, b"{this is not json", {})
                    payload = json.dumps({"error": {"message": f"scripted {action.status}", "type": "test",
                                                    "code": action.status}}).encode()
                    return self._send(action.status, payload, action.headers)
                return self._send(200, json.dumps(action).encode(), {})

            def _send(self, status: int, payload: bytes, headers: dict) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        class Server(ThreadingHTTPServer):
            request_queue_size = 256  # the default backlog of 5 drops connections under load

        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


if __name__ == "__main__":  # a server in its own process (benchmarks): prints its api_base
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--delay", type=float, default=0.0)
    args = ap.parse_args()
    with LoopbackLLM(lambda body: reply("Noted."), delay=args.delay) as srv:
        print(srv.api_base, flush=True)
        threading.Event().wait()
