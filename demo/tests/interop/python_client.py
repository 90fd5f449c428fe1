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
two_clients: (http) two sessions at once: A opens a window and B is notified; A and B write on
             the same expectedVersion concurrently and exactly one wins.
Prints PASS <scenario> on success; any failed check raises (non-zero exit).
"""

import base64
import json
import struct
import sys
import warnings
import zlib
from contextlib import asynccontextmanager

import anyio
import mcp_types as t
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

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
async def session(kind, where, handler=None):
    """An initialized legacy ClientSession over stdio or streamable HTTP."""
    transport = stdio_client(server(where)) if kind == "stdio" else streamable_http_client(where)
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
            err, body = await call(s, f"{editor}__submit", {"amount": 59.0})
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
        assert names == [f"{lock}__unlock"], names
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


async def two_clients(kind, where):
    assert kind == "http", "two_clients needs the HTTP transport"
    b_updated, b_tools = anyio.Event(), anyio.Event()

    async def on_b(msg):
        if isinstance(msg, t.ResourceUpdatedNotification):
            b_updated.set()
        elif isinstance(msg, t.ToolListChangedNotification):
            b_tools.set()

    async with session(kind, where) as (a, _), session(kind, where, on_b) as (b, _):
        await b.subscribe_resource(URI)
        err, body = await call(a, "app__new_order", {})
        assert not err, body
        editor = body["openedWindowIds"][0]
        with anyio.fail_after(10):
            await b_updated.wait()
            await b_tools.wait()
        assert editor in (await read(b))["operableWindowIds"], "B sees A's window"
        assert f"{editor}__edit_field" in [x.name for x in (await b.list_tools()).tools]

        v = window(await read(b), editor)["version"]
        results = {}

        async def write(name, s):
            results[name] = await call(s, f"{editor}__edit_field", {"field": "recipient", "value": name, "expectedVersion": v})

        async with anyio.create_task_group() as tg:
            tg.start_soon(write, "A", a)
            tg.start_soon(write, "B", b)
        oks = [n for n, (err, _) in results.items() if not err]
        assert len(oks) == 1, results
        loser = next(body for err, body in results.values() if err)
        assert loser["code"] == "stale_state" and loser["currentVersion"] == v + 1, loser
    print("PASS two_clients")


if __name__ == "__main__":
    scenario, kind, where = sys.argv[1], sys.argv[2], sys.argv[3]

    async def bounded():
        with anyio.fail_after(120):
            await {"legacy": legacy, "modern": modern, "lock_report": lock_report, "two_clients": two_clients}[scenario](kind, where)

    anyio.run(bounded)
