#!/usr/bin/env python3
"""The standard order task done both ways on the real demo, in a window under Xvfb, each on a
fresh demo process: through this bridge's protocol by a lean scripted agent, and through Rerun's
egui_mcp (the AccessKit widget tree, clicks and typing) by a lean scripted agent. Prints calls,
bytes received, the tool list a host holds (per turn) and round-trip p50/max, with the ratios.

The task: open a draft order, fill Recipient, Address, Amount and Currency, add an item (Green
tea, 2 at 4.50), submit, confirm, authorize with the password; then check the order is submitted.

Usage (from the repository root; PERFORMANCE.md has the details):

    cargo build --release -p order-demo --features inspection  # again after any other release
                                                               # build or `cargo bench`
    cargo install egui_mcp --locked --root target/egui_mcp      # once; takes a few minutes
    python3 scripts/side_by_side.py [--runs N]

It starts its own Xvfb (`-displayfd`), so it needs `Xvfb` and Mesa (Debian: xvfb
libgl1-mesa-dri). Only the Python standard library; raw JSON-RPC over stdio on both sides, so
the byte counts are exactly what a client receives (whole JSON-RPC messages).
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "target", "release", "order-demo")
EGUI_MCP = os.path.join(ROOT, "target", "egui_mcp", "bin", "egui-mcp")
TIMEOUT = 60.0

RECIPIENT, ADDRESS, AMOUNT, CURRENCY = "Grace Hopper", "1 Main Street", 250, "EUR"


class Server:
    """An MCP server on stdio; counts the requests made and the bytes of every message received."""

    def __init__(self, argv, env, name):
        self.proc = subprocess.Popen(
            argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.name, self.next_id = name, 0
        self.calls, self.received, self.times = 0, 0, []
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            with self.cond:
                self.lines.append(raw)
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)
            self.cond.notify_all()

    def _next(self, deadline):
        with self.cond:
            while not self.lines:
                left = deadline - time.monotonic()
                if left <= 0 or not self.cond.wait(left):
                    raise TimeoutError(f"{self.name}: no answer in {TIMEOUT} s")
            line = self.lines.pop(0)
        if line is None:
            raise EOFError(f"{self.name}: the server ended")
        return line

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        start = time.monotonic()
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        self.calls += 1
        deadline = start + TIMEOUT
        while True:
            line = self._next(deadline)
            self.received += len(line.rstrip(b"\r\n"))
            msg = json.loads(line)
            if msg.get("id") == rid:
                if method == "tools/call":
                    self.times.append(time.monotonic() - start)
                if "error" in msg:
                    raise RuntimeError(f"{self.name}: {method}: {msg['error']}")
                return msg["result"]

    def initialize(self, client_name):
        self.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": client_name, "version": "1"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def listing_bytes(tools):
    """The whole tool list as a host holds it, and the part a host gives its model every turn."""
    whole = len(json.dumps(tools, separators=(",", ":"), ensure_ascii=False))
    model = sum(
        len(json.dumps({"name": t["name"], "description": t.get("description"), "input_schema": t["inputSchema"]},
                       separators=(",", ":"), ensure_ascii=False))
        for t in tools
    )
    return whole, model


def ours(env, client_name, frozen):
    """Our protocol: the lean agent of demo/tests/token_budget.rs, with a windowed demo."""
    s = Server([DEMO, "--stdio", "--new-instance"], env, f"ours ({client_name})")
    s.initialize(client_name)
    known, listed = {}, []

    def list_tools():
        tools = s.request("tools/list", {})["tools"]
        for t in tools:
            known[t["name"]] = t["inputSchema"]
        listed[:] = tools

    def call(name, args):
        if name not in known:
            assert not frozen, f"{name}: a frozen-list client cannot list new tools"
            list_tools()
        for a in args:
            assert a in known[name].get("properties", {}), f"{name} has no parameter {a}"
        if any(t["name"] == name for t in listed):
            r = s.request("tools/call", {"name": name, "arguments": args})
        else:
            r = s.request("tools/call", {"name": "app__call", "arguments": {"tool": name, "arguments": args}})
        assert not r.get("isError"), f"{name}: {r}"
        out = r["structuredContent"]
        for spec in out.get("newToolSpecs", []):
            known[spec["name"]] = spec["inputSchema"]
        return out

    list_tools()
    state = json.loads(s.request("resources/read", {"uri": "app://windows"})["contents"][0]["text"])
    orders = next(w for w in state["windows"] if w["id"] == "orders")
    draft = next(r for r in orders["blocks"][0]["rows"] if r[2] == "Draft")[0]
    opened = call("orders__open_order", {"order": draft})
    editor = opened["openedWindowIds"][0]
    if not frozen:
        list_tools()
    # What the host holds with one editor open (a frozen host: still its first list).
    whole, model = listing_bytes(listed)
    r = call(f"{editor}__add_item", {"product": "Green tea", "quantity": 2, "unitPrice": 4.5, "expectedVersion": 1})  # a window just opened is at version 1
    r = call(f"{editor}__submit", {"recipient": RECIPIENT, "address": ADDRESS, "amount": AMOUNT, "currency": CURRENCY,
                                   "expectedVersion": r["version"]})
    r = call(f"{r['openedWindowIds'][0]}__confirm", {})
    call(f"{r['openedWindowIds'][0]}__authorize", {"password": "1234"})
    # Checked outside the agent's figures: the editor says Submitted.
    calls, received = s.calls, s.received
    state = json.loads(s.request("resources/read", {"uri": "app://windows"})["contents"][0]["text"])
    ed = next(w for w in state["windows"] if w["id"] == editor)
    fields = {i["label"]: i["value"] for b in ed["blocks"] if b["type"] == "fields" for i in b["items"]}
    assert fields.get("Status") == "Submitted" and fields.get("Recipient") == RECIPIENT, fields
    s.close()
    return {"calls": calls, "received": received, "list": whole, "model_list": model, "times": s.times}


def attach(s, port):
    r = s.request("tools/call", {"name": "attach", "arguments": {"port": port, "timeout_secs": 30}})
    if r.get("isError"):
        sys.exit(f"egui_mcp could not attach ({r['content'][0]['text']}): was the demo built with "
                 "`cargo build --release -p order-demo --features inspection` (a later plain build "
                 "or `cargo bench` replaces that binary)?")


def egui_mcp(env, port, batched):
    """egui_mcp: the widget tree, clicks and typing, on the same demo with egui_inspection."""
    app_env = dict(env, EGUI_INSPECTION=f"127.0.0.1:{port}")
    app = subprocess.Popen([DEMO, "--http", "127.0.0.1:0"], env=app_env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    s = Server([EGUI_MCP], env, "egui_mcp" + (" batched" if batched else ""))
    try:
        s.initialize("lean-agent")
        tools = s.request("tools/list", {})["tools"]
        attach(s, port)

        def ok(result, what):
            assert not result.get("isError"), f"{what}: {json.dumps(result)[:600]}"
            return result

        def call(name, args):
            return ok(s.request("tools/call", {"name": name, "arguments": args}), name)

        def tree(**query):
            r = call("widget_tree", query)
            return r.get("structuredContent", {}).get("nodes", [])

        def wait_for(**query):
            """Polls (in egui_mcp) until the widgets are there: what an agent must do after an
            action, since the app shows its effect a frame later."""
            r = call("wait_for", dict(query, timeout_secs=10))
            return list(flatten(r.get("structuredContent", {}).get("matched", [])))

        def run(actions):
            """Actions: a batch in one call, or one call each."""
            if batched:
                call("batch", {"actions": [{"name": n, "args": a} for n, a in actions]})
            else:
                for n, a in actions:
                    call(n, a)

        def replace(label, text, number=False):
            """A pre-filled field: focus it, select all, type (and Enter for a number)."""
            steps = [
                ("type_text", {"label_contains": label, "text": ""}),
                ("press_key", {"key": "A", "modifiers": {"command": True}}),
                ("type_text", {"text": str(text)}),
            ]
            return steps + ([("press_key", {"key": "Enter"})] if number else [])

        # Orders: the first draft's Edit button (only drafts say Edit).
        edit = tree(role="Button", content_contains="Edit")
        assert edit, "no Edit button in Orders"
        call("click", {"id": edit[0]["id"]})
        # The editor: its buttons (a locator must match one widget, and "Submit" also matches
        # Orders' "Submitted" tab), then fill, add the item, submit.
        submit = next(n["id"] for n in wait_for(role="Button", content_contains="Submit", min_matches=2)
                      if n.get("label") == "Submit order")
        run(
            replace("Recipient", RECIPIENT)
            + replace("Address", ADDRESS)
            + replace("Amount", AMOUNT, number=True)
            + replace("Currency", CURRENCY)
            + [("type_text", {"label_contains": "Product", "text": "Green tea"})]
            + replace("Quantity", 2, number=True)
            + replace("Unit price", "4.5", number=True)
            + [("click", {"role": "Button", "content_contains": "Add line item"}), ("click", {"id": submit})]
        )
        # Confirm order, then Authorize payment: look, then act.
        confirm = wait_for(role="Button", content_contains="Confirm")[0]["id"]
        run([("click", {"id": confirm})])
        wait_for(label_contains="Payment password")
        run([("type_text", {"label_contains": "Payment password", "text": "1234"}),
             ("click", {"role": "Button", "content_contains": "Authorize"})])
        # Verify, as an agent of this kind must: the editor says it is submitted.
        wait_for(content_contains="this order is read-only")
        whole, model = listing_bytes(tools)
        return {"calls": s.calls, "received": s.received, "list": whole, "model_list": model, "times": s.times}
    finally:
        s.close()
        app.kill()
        app.wait()


def flatten(nodes):
    """Every widget of a nested widget_tree answer."""
    for n in nodes:
        yield n
        yield from flatten(n.get("children", []))


def ours_latency(env, n):
    """One call that changes one field, n times: our `edit_field` on an open editor."""
    s = Server([DEMO, "--stdio", "--new-instance"], env, "ours (latency)")
    s.initialize("claude-code")
    opened = s.request("tools/call", {"name": "orders__open_order", "arguments": {"order": "#10004"}})
    tool = opened["structuredContent"]["openedWindowIds"][0] + "__edit_field"
    s.times.clear()
    for k in range(n):
        r = s.request("tools/call", {"name": tool, "arguments": {"field": "recipient", "value": f"Ada {k}"}})
        assert not r.get("isError"), r
    s.close()
    return sorted(s.times)


def egui_mcp_latency(env, port, n):
    """The same with egui_mcp: `type_text` into the editor's Recipient field (focus and type in
    one call), n times."""
    app = subprocess.Popen([DEMO, "--http", "127.0.0.1:0"], env=dict(env, EGUI_INSPECTION=f"127.0.0.1:{port}"),
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    s = Server([EGUI_MCP], env, "egui_mcp (latency)")
    try:
        s.initialize("lean-agent")
        attach(s, port)
        edit = s.request("tools/call", {"name": "widget_tree", "arguments": {"role": "Button", "content_contains": "Edit"}})
        s.request("tools/call", {"name": "click", "arguments": {"id": edit["structuredContent"]["nodes"][0]["id"]}})
        s.request("tools/call", {"name": "wait_for", "arguments": {"label_contains": "Recipient", "timeout_secs": 10}})
        s.times.clear()
        for _ in range(n):
            r = s.request("tools/call", {"name": "type_text", "arguments": {"label_contains": "Recipient", "text": "a"}})
            assert not r.get("isError"), r
        return sorted(s.times)
    finally:
        s.close()
        app.kill()
        app.wait()


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_xvfb():
    x = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1600x900x24", "-nolisten", "tcp"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    display = ":" + x.stdout.readline().decode().strip()
    assert len(display) > 1, "Xvfb gave no display"
    return x, display


def row(name, f, anchors=()):
    t = sorted(f["times"])
    p50, mx = statistics.median(t) * 1e3, t[-1] * 1e3
    ratios = ""
    if anchors:
        def r(key):
            return " / ".join(f"{a[key] / f[key]:.1f}×" for a in anchors)
        p = " / ".join(f"{statistics.median(a['times']) / statistics.median(t):.1f}×" for a in anchors)
        ratios = f" | {r('calls')} | {r('received')} | {r('list')} | {p}"
    else:
        ratios = " | | | |"
    return (f"| {name} | {f['calls']} | {f['received']:,} | {f['list']:,} ({f['model_list']:,}) | "
            f"{p50:.1f} ms | {mx:.1f} ms{ratios} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1, help="runs of each (the figures are the last run's)")
    args = ap.parse_args()
    for path in (DEMO, EGUI_MCP):
        if not os.path.exists(path):
            sys.exit(f"missing {path}: see this script's docstring for the two build commands")
    x, display = start_xvfb()
    env = dict(os.environ, DISPLAY=display, RUST_LOG="warn")
    env.pop("WAYLAND_DISPLAY", None)
    try:
        for _ in range(args.runs):
            codex = ours(env, "codex-mcp-client", frozen=True)
            code = ours(env, "claude-code", frozen=False)
            step = egui_mcp(env, free_port(), batched=False)
            batch = egui_mcp(env, free_port(), batched=True)
        ours_one = ours_latency(env, 100)
        theirs_one = egui_mcp_latency(env, free_port(), 100)
    finally:
        x.kill()
        x.wait()
    print("| the standard order task, demo in a window (Xvfb) | calls | bytes received "
          "| tool list with one editor open (model's part) | round trip p50 | max "
          "| egui_mcp (step / batched) ÷ this: calls | bytes | list | p50 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print(row("this bridge, frozen-list client (Codex)", codex, (step, batch)))
    print(row("this bridge, client that re-lists (Claude Code)", code, (step, batch)))
    print(row("egui_mcp, one call per action", step))
    print(row("egui_mcp, actions batched per screen", batch))
    print()
    print("| one call that changes one field, 100 times, in the window, over stdio | p50 | p90 | max |")
    print("| --- | --- | --- | --- |")
    for name, t in [("this bridge: `edit_field`", ours_one), ("egui_mcp: `type_text` (focus and type)", theirs_one)]:
        q = [t[len(t) // 2], t[len(t) * 9 // 10], t[-1]]
        print(f"| {name} | " + " | ".join(f"{v * 1e3:.1f} ms" for v in q) + " |")
    print(f"\np50 ratio egui_mcp ÷ this bridge: {theirs_one[len(theirs_one) // 2] / ours_one[len(ours_one) // 2]:.2f}")


if __name__ == "__main__":
    main()
