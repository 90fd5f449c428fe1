"""Drives the order demo over stdio with the official Python MCP SDK (a client we did not write).

usage: python_client.py legacy|modern <order-demo binary>

legacy: ClientSession, initialize (2025-11-25), resources/subscribe, notifications through the
        message handler; the whole order task: open, edit, add an item, submit, confirm,
        authorize; stale_state and validation_failed on the way; the card number never
        appears in any byte received.
modern: Client(mode="auto") probes server/discover and lands on 2026-07-28; subscriptions/listen
        delivers tools/list_changed and resources/updated.
Prints PASS on success; any failed check raises (non-zero exit).
"""

import json
import sys
import warnings

import anyio
import mcp_types as t
from mcp import Client, ClientSession, StdioServerParameters, stdio_client

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


async def legacy(binary):
    updated, tools_changed = anyio.Event(), anyio.Event()

    async def on_message(msg):
        nonlocal updated, tools_changed
        if isinstance(msg, t.ResourceUpdatedNotification) and str(msg.params.uri) == URI:
            updated.set()
        elif isinstance(msg, t.ToolListChangedNotification):
            tools_changed.set()

    async with stdio_client(server(binary)) as (r, w):
        async with ClientSession(r, w, message_handler=on_message) as s:
            init = await s.initialize()
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


async def modern(binary):
    async with Client(server(binary), mode="auto") as c:
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


if __name__ == "__main__":
    mode, binary = sys.argv[1], sys.argv[2]

    async def bounded():
        with anyio.fail_after(120):
            await {"legacy": legacy, "modern": modern}[mode](binary)

    anyio.run(bounded)
