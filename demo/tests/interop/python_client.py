"""Drives the order demo with the official Python MCP SDK (a client we did not write).

usage: python_client.py SCENARIO stdio <order-demo binary>
       python_client.py SCENARIO http <http://host:port/mcp>

legacy:      ClientSession, initialize (2025-11-25), resources/subscribe, notifications through the
             message handler; the whole order task: open, edit, add an item, submit, confirm,
             authorize; stale_state and validation_failed on the way; the card number never
             appears in anything received.
modern:      Client(mode="auto") probes server/discover and lands on 2026-07-28;
             subscriptions/listen delivers tools/list_changed and resources/updated.
lock_report: the app-level lock (collapse, blocked_by_modal, wrong PIN), a large-data load
             (1000 rows), and the Sales Report's PNG chart, decoded.
dialogs:     remove_item, focus, Discard changes? (keep_editing, discard), cancelling Authorize
             payment and Confirm order, closing the report.
two_clients: (http) two sessions at once: A opens a window and B is notified; A and B write on
             the same expectedVersion concurrently and exactly one wins.
both_transports: (stdio binary) one process serving stdio and HTTP at once, one UI state.
terminal:    (stdio binary) started with a terminal as stdin and no display: HTTP, headless.
Prints PASS <scenario> on success; any failed check raises (non-zero exit).
"""

import base64
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
import warnings
import zlib
from contextlib import asynccontextmanager

import anyio
import mcp_types as t
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

try:
    from mcp.shared.exceptions import MCPDeprecationWarning

    warnings.simplefilter("ignore", MCPDeprecationWarning)
except ImportError:  # older SDKs: nothing to silence
    pass

URI = "app://windows"
CARD = "4000 1234 5678 9010"
received: list[str] = []  # every structured payload and resource text we got


def window(state, wid):
    return next(w for w in state["windows"] if w["id"] == wid)


def server(binary):
    return StdioServerParameters(command=binary, args=["--headless", "--stdio"], env={"RUST_LOG": "warn"})


def client_target(kind, where):
    """What `Client(...)` takes: stdio parameters, or the URL of a streamable HTTP endpoint."""
    return server(where) if kind == "stdio" else where


@asynccontextmanager
async def session(kind, where, handler=None, headers=None):
    """An initialized legacy ClientSession over stdio or streamable HTTP (with these headers)."""
    if kind == "stdio":
        transport = stdio_client(server(where))
    else:
        transport = streamable_http_client(where, http_client=create_mcp_http_client(headers=headers) if headers else None)
    async with transport as streams:
        async with ClientSession(streams[0], streams[1], message_handler=handler) as s:
            yield s, await s.initialize()


async def read(s):
    text = (await s.read_resource(URI)).contents[0].text
    received.append(text)
    return json.loads(text)


async def call(s, name, args):
    r = await s.call_tool(name, args)
    body = r.structured_content
    received.append(json.dumps(body))
    assert body is not None, f"{name}: no structuredContent"
    assert len(r.content) == 1 and "\n" not in r.content[0].text, f"{name}: one-line text mirror"
    return r.is_error, body


async def legacy(kind, where):
    updated, tools_changed = anyio.Event(), anyio.Event()

    async def on_message(msg):
        nonlocal updated, tools_changed
        if isinstance(msg, t.ResourceUpdatedNotification) and str(msg.params.uri) == URI:
            updated.set()
        elif isinstance(msg, t.ToolListChangedNotification):
            tools_changed.set()

    async with session(kind, where, on_message) as (s, init):
        if True:
            assert init.server_info.name == "order-demo", init.server_info
            assert init.capabilities.resources.subscribe is True
            assert init.capabilities.tools.list_changed is True
            assert "app://windows" in init.instructions
            resources = (await s.list_resources()).resources
            assert [str(x.uri) for x in resources] == [URI], resources

            state = await read(s)
            assert state["operableWindowIds"] == ["orders"], state["operableWindowIds"]
            table = window(state, "orders")["blocks"][0]
            assert table["type"] == "table" and table["total"] == 20000 and len(table["rows"]) == 20, table
            await s.subscribe_resource(URI)

            tools = {x.name: x for x in (await s.list_tools()).tools}
            assert tools["orders__load_orders"].annotations.read_only_hint is True
            err, body = await call(s, "orders__load_orders", {"status": "Draft", "limit": 3})
            assert not err and len(body["result"]["rows"]) == 3 and body["result"]["total"] > 1000, body
            draft = body["result"]["rows"][0][0]

            tools_changed = anyio.Event()
            err, body = await call(s, "orders__open_order", {"order": draft})
            assert not err, body
            editor = body["openedWindowIds"][0]
            with anyio.fail_after(10):
                await tools_changed.wait()
            names = [x.name for x in (await s.list_tools()).tools]
            for action in ("edit_field", "add_item", "remove_item", "submit", "close", "focus"):
                assert f"{editor}__{action}" in names, names
            assert tools[f"orders__open_order"].annotations.destructive_hint is False

            v = window(await read(s), editor)["version"]
            updated = anyio.Event()
            err, body = await call(s, f"{editor}__edit_field", {"field": "recipient", "value": "Grace Hopper", "expectedVersion": v})
            assert not err and body["version"] == v + 1, body
            with anyio.fail_after(10):
                await updated.wait()
            err, body = await call(s, f"{editor}__edit_field", {"field": "address", "value": "x", "expectedVersion": v})
            assert err and body["code"] == "stale_state" and body["currentVersion"] == v + 1, body
            err, body = await call(s, f"{editor}__edit_field", {"field": "amount", "value": "lots"})
            assert err and body["code"] == "validation_failed" and body["fields"][0]["field"] == "value", body
            err, body = await call(s, f"{editor}__edit_field", {"field": "card_number", "value": CARD})
            assert not err, body
            err, body = await call(s, f"{editor}__add_item", {"product": "Green tea", "quantity": 2, "unitPrice": 4.5})
            assert not err, body
            err, body = await call(s, f"{editor}__submit", {"amount": 0})
            assert err and [f["field"] for f in body["fields"]] == ["amount"], body
            err, body = await call(s, f"{editor}__submit", {})
            assert not err, body
            confirm = body["openedWindowIds"][0]
            await s.list_tools()  # as an agent does after a dialog opens
            state = await read(s)
            assert state["operableWindowIds"] == ["orders", confirm], state["operableWindowIds"]
            assert window(state, confirm)["ownerId"] == editor

            err, body = await call(s, f"{confirm}__confirm", {})
            assert not err, body
            authorize = body["openedWindowIds"][0]
            await s.list_tools()
            state = await read(s)
            assert window(state, authorize)["ownerId"] == confirm
            assert authorize in state["operableWindowIds"] and confirm not in state["operableWindowIds"]
            err, body = await call(s, f"{editor}__submit", {})
            assert err and body["code"] == "blocked_by_modal", body
            err, body = await call(s, f"{authorize}__authorize", {"password": "0000"})
            assert err and body["fields"][0]["field"] == "password", body
            err, body = await call(s, f"{authorize}__authorize", {"password": "1234"})
            assert not err, body

            state = await read(s)
            assert {w["id"] for w in state["windows"]} == {"orders", editor}, state["windows"]
            assert "submitted" in window(state, editor)["summary"], window(state, editor)["summary"]
            names = [x.name for x in (await s.list_tools()).tools]
            assert f"{editor}__submit" not in names and f"{editor}__close" in names, names

    everything = "".join(received)
    assert CARD not in everything and "4000 1234" not in everything, "the card number leaked"
    print("PASS legacy")


async def modern(kind, where):
    async with Client(client_target(kind, where), mode="auto") as c:
        assert c.protocol_version == "2026-07-28", c.protocol_version
        assert c.server_info.name == "order-demo"
        assert c.server_capabilities.resources.subscribe is True
        async with c.listen(tools_list_changed=True, resource_subscriptions=[URI]) as sub:
            r = await c.call_tool("app__new_order", {})
            assert not r.is_error, r
            editor = r.structured_content["openedWindowIds"][0]
            seen = set()
            with anyio.fail_after(10):
                async for event in sub:
                    seen.add(type(event).__name__)
                    if len(seen) >= 2:
                        break
            names = [x.name for x in (await c.list_tools()).tools]
            assert f"{editor}__edit_field" in names, names
            state = json.loads((await c.read_resource(URI)).contents[0].text)
            assert window(state, editor)["title"] == "Order Editor · New order"
    print("PASS modern", sorted(seen))


def png_info(data):
    """Checks a PNG by hand (signature, IHDR, inflated IDAT size); returns (width, height)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "PNG signature"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])[0]
        assert zlib.crc32(kind + chunk) == crc, f"CRC of {kind}"
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            size = (width, height, depth, color)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, color = size
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color]
    assert len(zlib.decompress(idat)) == height * (1 + width * channels * depth // 8), "pixel data size"
    return width, height


async def lock_report(kind, where):
    async with session(kind, where) as (s, _):
        err, body = await call(s, "app__lock", {})
        assert not err, body
        lock = body["openedWindowIds"][0]
        state = await read(s)
        assert state["operableWindowIds"] == [lock], state["operableWindowIds"]
        assert window(state, lock)["modal"] is True and window(state, lock)["ownerId"] is None
        names = [x.name for x in (await s.list_tools()).tools]
        # Besides unlock, only the bridge's own: its read-only state and picture tools and the
        # dispatchers (docs/demo.md).
        dispatchers = ["app__call", "app__call_destructive", "app__call_readonly"]
        reads = ["app__read_windows", "app__view_window"]
        assert sorted(names) == sorted([*reads, *dispatchers, f"{lock}__unlock"]), names
        err, body = await call(s, "orders__load_orders", {})
        assert err and body["code"] == "blocked_by_modal" and body["blockingWindowId"] == lock, body
        err, body = await call(s, f"{lock}__unlock", {"pin": "0000"})
        assert err and body["fields"][0]["field"] == "pin", body
        err, body = await call(s, f"{lock}__unlock", {"pin": "1234"})
        assert not err, body
        ops = (await read(s))["operableWindowIds"]
        assert "orders" in ops and lock not in ops, ops

        err, body = await call(s, "orders__load_orders", {"offset": 19000, "limit": 1000})
        assert not err, body
        rows = body["result"]["rows"]
        assert len(rows) == 1000 and rows[0][0] == "#29001" and body["result"]["total"] == 20000, rows[:1]
        err, body = await call(s, "orders__load_orders", {"limit": 5000})
        assert err and body["fields"][0]["field"] == "limit", body

        err, body = await call(s, "app__open_report", {})
        assert not err and body["openedWindowIds"] == ["report"], body
        report = window(await read(s), "report")
        media = next(b for b in report["blocks"] if b["type"] == "media")
        assert media["mimeType"] == "image/png" and media["url"].startswith("data:image/png;base64,"), media["mimeType"]
        width, height = png_info(base64.b64decode(media["url"].split(",", 1)[1]))
        assert width > 100 and height > 50, (width, height)
        assert "Today $" in media["alt"], media["alt"]
        top = next(b for b in report["blocks"] if b["type"] == "list")
        assert top["ordered"] is True and len(top["items"]) == 5, top
        v = report["version"]
        err, body = await call(s, "report__refresh", {})
        assert not err and window(await read(s), "report")["version"] == v, "refresh is read-only"
    print("PASS lock_report")


async def dialogs(kind, where):
    """The tools the order task does not need: remove_item, focus, the Discard changes? dialog,
    cancelling Authorize payment, closing the report."""
    async with session(kind, where) as (s, _):
        err, body = await call(s, "app__new_order", {})
        editor = body["openedWindowIds"][0]
        err, body = await call(s, f"{editor}__focus", {})
        assert not err, body
        for product in ("Green tea", "Oat milk"):
            err, body = await call(s, f"{editor}__add_item", {"product": product, "quantity": 1})
            assert not err, body
        err, body = await call(s, f"{editor}__remove_item", {"row": 5})
        assert err and body["fields"][0]["field"] == "row", body
        err, body = await call(s, f"{editor}__remove_item", {"row": 0})
        assert not err, body
        items = next(b for b in window(await read(s), editor)["blocks"] if b["type"] == "table")["rows"]
        assert [r[0] for r in items] == ["Oat milk"], items

        # Closing with unsaved changes asks first.
        err, body = await call(s, f"{editor}__close", {})
        discard = body["openedWindowIds"][0]
        assert not err and discard.startswith("discard-"), body
        assert window(await read(s), discard)["ownerId"] == editor
        err, body = await call(s, f"{discard}__keep_editing", {})
        assert not err and editor in (await read(s))["operableWindowIds"], body
        err, body = await call(s, f"{editor}__close", {})
        discard = body["openedWindowIds"][0]
        err, body = await call(s, f"{discard}__discard", {})
        assert not err, body
        assert editor not in [w["id"] for w in (await read(s))["windows"]], "discarded and closed"

        # Authorize payment can be cancelled back to Confirm order.
        err, body = await call(s, "app__new_order", {})
        editor = body["openedWindowIds"][0]
        await call(s, f"{editor}__add_item", {"product": "Hand grinder", "quantity": 1, "unitPrice": 30})
        err, body = await call(s, f"{editor}__submit", {"recipient": "Ada", "amount": 30})
        confirm = body["openedWindowIds"][0]
        err, body = await call(s, f"{confirm}__confirm", {})
        authorize = body["openedWindowIds"][0]
        err, body = await call(s, f"{authorize}__cancel", {})
        assert not err, body
        state = await read(s)
        assert confirm in state["operableWindowIds"] and authorize not in [w["id"] for w in state["windows"]]
        err, body = await call(s, f"{confirm}__cancel", {})
        assert not err and editor in (await read(s))["operableWindowIds"], body

        err, body = await call(s, "app__open_report", {})
        err, body = await call(s, "report__close", {})
        assert not err and "report" not in [w["id"] for w in (await read(s))["windows"]], body
    print("PASS dialogs")


def watcher():
    """A message handler and the two events it sets: resources/updated, tools/list_changed."""
    updated, tools_changed = anyio.Event(), anyio.Event()

    async def on_message(msg):
        if isinstance(msg, t.ResourceUpdatedNotification):
            updated.set()
        elif isinstance(msg, t.ToolListChangedNotification):
            tools_changed.set()

    return on_message, (updated, tools_changed)


async def open_and_race(opener, other, other_events):
    """`opener` opens an editor; `other` is notified (both notifications) and sees it; then both
    write on the same expectedVersion at once, and exactly one wins."""
    err, body = await call(opener, "app__new_order", {})
    assert not err, body
    editor = body["openedWindowIds"][0]
    with anyio.fail_after(10):
        for event in other_events:
            await event.wait()
    assert editor in (await read(other))["operableWindowIds"], "the other connection sees the window"
    assert f"{editor}__edit_field" in [x.name for x in (await other.list_tools()).tools]
    v = window(await read(other), editor)["version"]
    results = {}

    async def write(name, s):
        results[name] = await call(s, f"{editor}__edit_field", {"field": "recipient", "value": name, "expectedVersion": v})

    async with anyio.create_task_group() as tg:
        tg.start_soon(write, "first", opener)
        tg.start_soon(write, "second", other)
    assert sorted(err for err, _ in results.values()) == [False, True], results
    loser = next(body for err, body in results.values() if err)
    assert loser["code"] == "stale_state" and loser["currentVersion"] == v + 1, loser


async def both_transports(kind, where):
    """One process serving stdio and HTTP at once: one UI state, notifications to both,
    operations serialised across them (§10.1)."""
    assert kind == "stdio", "both_transports starts the binary itself"
    on_stdio, stdio_events = watcher()
    # It serves HTTP, so it opens a local endpoint too: in the test's own folder, if it has one.
    own = {k: v for k, v in os.environ.items() if k == "EGUI_MCP_BRIDGE_DIR"}
    params = StdioServerParameters(command=where, args=["--headless", "--stdio", "--http", "127.0.0.1:0", "--no-token"], env={"RUST_LOG": "warn", **own})
    with tempfile.TemporaryFile(mode="w+") as errlog:
        async with stdio_client(params, errlog=errlog) as streams:
            async with ClientSession(streams[0], streams[1], message_handler=on_stdio) as s:
                await s.initialize()
                errlog.seek(0)
                url = re.search(r"MCP over streamable HTTP: (\S+)", errlog.read()).group(1)
                await s.subscribe_resource(URI)
                async with session("http", url) as (h, _):
                    await open_and_race(h, s, stdio_events)
    print("PASS both_transports")


async def terminal(kind, where):
    """Started from a terminal with no display: headless by itself, HTTP on loopback, and the
    client config printed on stderr (docs/demo.md, "Starting it")."""
    import pty

    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["RUST_LOG"] = "info"
    env["XDG_STATE_HOME"] = tempfile.mkdtemp()  # where the kept token goes, not the user's home
    proc = subprocess.Popen([where], stdin=slave, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    try:
        lines, url, deadline = [], None, time.monotonic() + 30
        while time.monotonic() < deadline and not (url and any("running headless" in l for l in lines)):
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            m = re.search(r"MCP over streamable HTTP: (http://127\.0\.0\.1:\d+/mcp)", line)
            url = url or (m and m.group(1))
        text = "".join(lines)
        assert url, f"no URL on stderr:\n{text}"
        assert "no display found" in text and "Client config:" in text and "claude mcp add --transport http" in text, text
        # HTTP needs a token by default: kept in a file only the user can read (the same across
        # runs), whose path (never the token) is printed.
        m = re.search(r"Token file: +(\S+)", text)
        assert m, f"no token file named:\n{text}"
        path = m.group(1)
        assert os.stat(path).st_mode & 0o077 == 0, "the token file is readable by others"
        token = open(path).readline().strip()
        assert len(token) >= 32 and token not in text, "the token itself was printed"
        served = False
        try:
            async with session("http", url) as (s, init):
                served = True
        except BaseException:  # refused: the client cannot initialise without the token
            pass
        assert not served, "served without the token"
        async with session("http", url, headers={"Authorization": f"Bearer {token}"}) as (s, init):
            assert init.server_info.name == "order-demo"
            assert "orders__load_orders" in [x.name for x in (await s.list_tools()).tools]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        os.close(master)
        os.close(slave)
    print("PASS terminal")


async def two_clients(kind, where):
    assert kind == "http", "two_clients needs the HTTP transport"
    on_b, b_events = watcher()
    async with session(kind, where) as (a, _), session(kind, where, on_b) as (b, _):
        await b.subscribe_resource(URI)
        await open_and_race(a, b, b_events)
    print("PASS two_clients")


async def stress(kind, where):
    """8 HTTP clients (keep-alive connections) x WRITES conflicting writes on one window: no
    update is lost (every success has its own version, one above the last), losers get
    stale_state with the current version, and the window ends with the last success."""
    assert kind == "http", "stress needs the HTTP transport"
    clients, writes = 8, int(os.environ.get("STRESS_WRITES", "1000"))
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        sessions = [(await stack.enter_async_context(session(kind, where)))[0] for _ in range(clients)]
        r = await sessions[0].call_tool("app__new_order", {})
        editor = r.structured_content["openedWindowIds"][0]
        v0 = window(await read(sessions[0]), editor)["version"]
        wins, stale = [], 0

        async def writer(i, s):
            nonlocal stale
            v = v0
            for k in range(writes):
                value = f"c{i}-{k}"
                r = await s.call_tool(f"{editor}__edit_field", {"field": "recipient", "value": value, "expectedVersion": v})
                body = r.structured_content
                if r.is_error:
                    assert body["code"] == "stale_state", body
                    stale += 1
                    v = body["currentVersion"]
                else:
                    wins.append((body["version"], value))
                    v = body["version"]

        async with anyio.create_task_group() as tg:
            for i, s in enumerate(sessions):
                tg.start_soon(writer, i, s)
        final = window(await read(sessions[0]), editor)
        versions = sorted(v for v, _ in wins)
        assert versions == list(range(v0 + 1, v0 + 1 + len(wins))), "two successes on one version: a lost update"
        assert final["version"] == v0 + len(wins), (final["version"], v0, len(wins))
        recipient = next(i["value"] for i in final["blocks"][0]["items"] if i["label"] == "Recipient")
        assert recipient == max(wins)[1], (recipient, max(wins))
        assert stale + len(wins) == clients * writes
        print(f"STRESS {clients} clients x {writes} writes: {len(wins)} won, {stale} stale_state, 0 lost")
    print("PASS stress")


if __name__ == "__main__":
    scenario, kind, where = sys.argv[1], sys.argv[2], sys.argv[3]

    async def bounded():
        with anyio.fail_after(600 if scenario == "stress" else 120):
            scenarios = {
                "legacy": legacy,
                "modern": modern,
                "lock_report": lock_report,
                "dialogs": dialogs,
                "two_clients": two_clients,
                "both_transports": both_transports,
                "terminal": terminal,
                "stress": stress,
            }
            await scenarios[scenario](kind, where)

    anyio.run(bounded)
