"""A local model server on 127.0.0.1: one provider API (an adapter), answered by the brain.

Every request the client makes is handled by the adapter. The adapter says whether a request
was a model turn of the task (a request that offered the order-demo's tools and was answered by
the brain) or a side request (a title, a token count, a model list), and the server records the
turns: bytes received, what the brain decided. It answers at once: no sleeps anywhere.
"""

from __future__ import annotations

import http.server
import json
import os
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | list[bytes] = b""  # a list: written chunk by chunk (SSE), then closed
    turn: str | None = None  # what the brain decided, when this was a model turn
    turn_bytes: int = 0  # what the model saw in this turn (the request body), when a turn
    action: Any = None  # the brain's action, when a turn (its error counts go in the record)
    ours: int | None = None  # of turn_bytes, the bridge's: its tools, instructions and results


# An adapter: (method, path, headers, body) -> Reply.
Adapter = Callable[[str, str, dict[str, str], bytes], Reply]


@dataclass
class Turn:
    """One model turn: the request's bytes, the bridge's part of them, what the brain decided
    and the errors (of them ``stale_state``) the conversation had shown it by then."""

    nbytes: int
    ours: int | None
    decision: str
    errors: int = 0
    stale: int = 0


class Turns:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.turns: list[Turn] = []
        self.side: list[str] = []  # side requests: method path
        self.final: str | None = None
        self.errors: list[str] = []


class ModelServer:
    def __init__(self, adapter: Adapter, log: Callable[[str], None] | None = None) -> None:
        self.adapter = adapter
        self.record = Turns()
        self.log = log or (lambda s: print(s, file=sys.stderr, flush=True))
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: Any) -> None:  # quiet
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    body = _read_chunked(self.rfile)
                headers = {k.lower(): v for k, v in self.headers.items()}
                try:
                    reply = outer.adapter(self.command, self.path, headers, body)
                except Exception as e:  # a broken adapter must show, not hang the client
                    import traceback

                    outer.record.errors.append(traceback.format_exc())
                    outer.log(f"model server: adapter error on {self.command} {self.path}: {e!r}")
                    reply = Reply(500, {"content-type": "application/json"}, json.dumps({"error": {"message": str(e)}}).encode())
                if reply.turn is not None and os.environ.get("REAL_CLIENTS_DUMP"):
                    # For developing: each model turn's request body, numbered, in that folder.
                    dump = Path(os.environ["REAL_CLIENTS_DUMP"])
                    dump.mkdir(parents=True, exist_ok=True)
                    (dump / f"turn-{len(outer.record.turns) + 1:02d}.json").write_bytes(body)
                with outer.record.lock:
                    if reply.turn is not None:
                        a = reply.action
                        outer.record.turns.append(Turn(
                            reply.turn_bytes or len(body), reply.ours, reply.turn,
                            getattr(a, "errors", 0), getattr(a, "stale", 0)))
                        if not reply.turn.startswith("call "):
                            outer.record.final = reply.turn
                    else:
                        outer.record.side.append(f"{self.command} {self.path.split('?')[0]}")
                self.send_response(reply.status)
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                if isinstance(reply.body, list):
                    self.send_header("Transfer-Encoding", "chunked")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    for chunk in reply.body:
                        if chunk:
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                    self.close_connection = True
                else:
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _handle  # noqa: N815

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="model-server", daemon=True)

    def __enter__(self) -> "ModelServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _read_chunked(rfile: Any) -> bytes:
    out = b""
    while True:
        size = int(rfile.readline().strip().split(b";")[0] or b"0", 16)
        if size == 0:
            rfile.readline()
            return out
        out += rfile.read(size)
        rfile.readline()


def sse(events: list[tuple[str | None, Any]]) -> list[bytes]:
    """Server-sent events: (event name or None, JSON data) each."""
    out = []
    for name, data in events:
        text = data if isinstance(data, str) else json.dumps(data)
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {text}\n\n".encode())
    return out
