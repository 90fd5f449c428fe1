"""The demo with --native-windows under an X server (Xvfb), driven over stdio by the official
Python MCP SDK, with xdotool as the X server's window list and the person's keyboard.

usage: DISPLAY=:N python native_windows.py <order-demo binary>     (it starts the demo, over stdio)
       DISPLAY=:N python native_windows.py --http <URL>               (a demo already serving HTTP)

The demo runs with --no-approval: this agent works unattended (the person's Allow at the window
is tested in-process, demo/tests/it/person_and_agent.rs).

Checks, each on real OS windows (egui viewports):
- the order task through Confirm order -> Authorize payment, each dialog in its own OS window,
  the owner blocked while its dialog is open, and Authorize payment stacked above Confirm order
  (xwininfo's list of the root's children);
- a call to the Sales Report, a deferred viewport (its own pass), applied and answered;
- closing that native window removes it from app://windows, and its id is never reused;
- the person's typing in an editor's OS window beats an older agent write (stale_state).
Prints PASS native_windows; any failed check raises (non-zero exit).
"""

import json
import os
import subprocess
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

URI = "app://windows"


def windows_named(pattern):
    """The visible X windows whose whole name matches `pattern` (xdotool's regular expressions
    work on bytes: write `.*` for a non-ASCII character such as the editors' "·")."""
    out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{pattern}$"], capture_output=True, text=True)
    return out.stdout.split()


def stacking():
    """The X windows directly under the root, top-most first (as xwininfo lists them; without a
    window manager those are the apps' OS windows), as xdotool's decimal ids."""
    out = subprocess.run(["xwininfo", "-root", "-children"], capture_output=True, text=True, check=True).stdout
    return [str(int(line.split()[0], 16)) for line in out.splitlines() if line.strip().startswith("0x")]


def above(top, below):
    """Whether the OS window named `top` is stacked above the one named `below`."""
    order, t, b = stacking(), windows_named(top), windows_named(below)
    return len(t) == 1 and len(b) == 1 and order.index(t[0]) < order.index(b[0])


async def until(what, check, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        await anyio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def read(s):
    return json.loads((await s.read_resource(URI)).contents[0].text)


async def call(s, name, args):
    r = await s.call_tool(name, args)
    return r.is_error, r.structured_content


def window(state, wid):
    return next(w for w in state["windows"] if w["id"] == wid)


def transport(args):
    if args[0] == "--http":
        return streamable_http_client(args[1])
    env = {
        "DISPLAY": os.environ["DISPLAY"],
        "RUST_LOG": "warn",
        "XDG_RUNTIME_DIR": os.environ.get("XDG_RUNTIME_DIR", "/tmp"),
        # Its local endpoint in the test's own folder, if it has one.
        **{k: v for k, v in os.environ.items() if k == "EGUI_MCP_BRIDGE_DIR"},
    }
    return stdio_client(StdioServerParameters(command=args[0], args=["--stdio", "--new-instance", "--native-windows", "--no-approval"], env=env))


async def main(args):
    async with transport(args) as streams:
        async with ClientSession(streams[0], streams[1]) as s:
            await s.initialize()
            await until("the Orders OS window", lambda: windows_named("Orders"))

            # The order task through Confirm -> Authorize, every dialog an OS window of its own.
            err, drafts = await call(s, "orders__load_orders", {"status": "Draft", "limit": 2})
            assert not err, drafts
            first, second = (row[0] for row in drafts["result"]["rows"])
            err, opened = await call(s, "orders__open_order", {"order": first})
            assert not err, opened
            editor = opened["openedWindowIds"][0]
            await until("the editor's OS window", lambda: windows_named(f"Order Editor .* {first}"))
            version = window(await read(s), editor)["version"]
            for field, value in [("recipient", "Grace Hopper"), ("address", "1 Main Street")]:
                err, res = await call(s, f"{editor}__edit_field", {"field": field, "value": value, "expectedVersion": version})
                assert not err, res
                version = res["version"]
            err, res = await call(s, f"{editor}__add_item", {"product": "Green tea", "quantity": 2, "unitPrice": 4.5, "expectedVersion": version})
            assert not err, res
            err, res = await call(s, f"{editor}__submit", {"expectedVersion": res["version"]})
            assert not err, res
            confirm = res["openedWindowIds"][0]
            await until("the Confirm order OS window", lambda: windows_named("Confirm order"))
            state = await read(s)
            assert editor not in state["operableWindowIds"] and confirm in state["operableWindowIds"], state["operableWindowIds"]
            assert window(state, confirm)["ownerId"] == editor
            err, res = await call(s, f"{editor}__close", {})
            assert err and res["code"] == "blocked_by_modal" and res["blockingWindowId"] == confirm, res
            err, res = await call(s, f"{confirm}__confirm", {})
            assert not err, res
            authorize = res["openedWindowIds"][0]
            await until("the Authorize payment OS window", lambda: windows_named("Authorize payment"))
            assert len(windows_named("Confirm order")) == 1, "Confirm order stays open under Authorize payment"
            # Where the person can answer it: above Confirm order (before, Confirm's OS window was
            # made anew on top of it).
            assert above("Authorize payment", "Confirm order"), f"Authorize payment is under Confirm order: {stacking()}"
            err, res = await call(s, f"{authorize}__authorize", {"password": "wrong"})
            assert err and res["code"] == "validation_failed", res
            err, res = await call(s, f"{authorize}__authorize", {"password": "1234"})
            assert not err, res
            await until("both dialogs' OS windows to close", lambda: not windows_named("Confirm order") and not windows_named("Authorize payment"))
            assert "submitted" in window(await read(s), editor)["summary"]

            # The Sales Report: a deferred viewport, its own pass.
            err, res = await call(s, "app__open_report", {})
            assert not err, res
            await until("the Sales Report OS window", lambda: windows_named("Sales Report"))
            state = await read(s)
            report = next(w["id"] for w in state["windows"] if w["title"] == "Sales Report")
            err, res = await call(s, f"{report}__refresh", {})
            assert not err and res["version"] >= 1, res
            err, res = await call(s, f"{report}__close", {"expectedVersion": res["version"]})
            assert not err, res
            assert all(w["title"] != "Sales Report" for w in (await read(s))["windows"]), "closed: gone from the state"
            await until("the report's OS window to close", lambda: not windows_named("Sales Report"))
            err, res = await call(s, "app__open_report", {})
            assert not err, res
            again = res["openedWindowIds"][0]
            assert again != report, f"a closed window's id is never reused: {again}"

            # The person's typing in an editor's OS window beats an older agent write.
            err, opened = await call(s, "orders__open_order", {"order": second})
            assert not err, opened
            other = opened["openedWindowIds"][0]
            ids = await until("the second editor's OS window", lambda: windows_named(f"Order Editor .* {second}"))
            before = window(await read(s), other)["version"]
            subprocess.run(["xdotool", "windowfocus", "--sync", ids[0]], check=True)
            subprocess.run(["xdotool", "key", "Tab"], check=True)  # the first field: Recipient
            await anyio.sleep(0.5)  # egui moves the focus at the end of the pass that saw Tab
            subprocess.run(["xdotool", "key", "End"], check=True)
            subprocess.run(["xdotool", "type", "--delay", "30", " Jr."], check=True)

            def recipient(state):
                return window(state, other)["blocks"][0]["items"][0]["value"]

            deadline = time.monotonic() + 20
            while not recipient(state := await read(s)).endswith(" Jr."):
                assert time.monotonic() < deadline, f"the person's typing never reached the state: {recipient(state)}"
                await anyio.sleep(0.1)
            assert window(state, other)["version"] > before
            err, res = await call(s, f"{other}__edit_field", {"field": "recipient", "value": "Agent", "expectedVersion": before})
            assert err and res["code"] == "stale_state", res
            assert recipient(await read(s)).endswith(" Jr."), "the person's edit stands"
            print(f"windows: {len(windows_named('.*'))} OS windows at the end")
    print("PASS native_windows")


if __name__ == "__main__":

    async def bounded():
        with anyio.fail_after(180):
            await main(sys.argv[1:])

    anyio.run(bounded)
