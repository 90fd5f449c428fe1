"""Takes the README's screenshot of the real demo window: run under Xvfb with the Python MCP SDK.

usage: DISPLAY=:99 python screenshot.py <order-demo binary> <out.png> [--native-windows] [--approval]
(Debian: apt-get install xvfb xdotool imagemagick libgl1-mesa-dri libxkbcommon-x11-0, then
 `Xvfb :99 -screen 0 1600x900x24 &`; the Python `mcp` package is in target/tmp/interop-venv.)

It starts the demo windowed as an MCP stdio server, acts as an agent (opens two orders, edits
one, submits it so the Confirm order dialog opens, opens the Sales Report), waits for the UI to
settle, and grabs the screen with ImageMagick's `import`. With --approval the agent goes on:
it confirms, and its `authorize` waits for the person, so the picture shows the Allow / Deny
prompt in the Authorize payment dialog (nobody answers: the call then times out).
"""

import os
import subprocess
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client


async def main(binary, out, native, approval):
    env = {"DISPLAY": os.environ["DISPLAY"], "RUST_LOG": "warn", "XDG_RUNTIME_DIR": os.environ.get("XDG_RUNTIME_DIR", "/tmp")}
    async with stdio_client(StdioServerParameters(command=binary, args=["--stdio", "--new-instance"] + (["--native-windows"] if native else []), env=env)) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            drafts = (await s.call_tool("orders__load_orders", {"status": "Draft", "limit": 2})).structured_content
            first, second = (row[0] for row in drafts["result"]["rows"])
            await s.call_tool("app__open_report", {})
            await s.call_tool("orders__open_order", {"order": second})
            editor = (await s.call_tool("orders__open_order", {"order": first})).structured_content["openedWindowIds"][0]
            await s.call_tool(f"{editor}__edit_field", {"field": "recipient", "value": "Grace Hopper"})
            await s.call_tool(f"{editor}__add_item", {"product": "Green tea", "quantity": 2, "unitPrice": 4.5})
            submitted = (await s.call_tool(f"{editor}__submit", {})).structured_content
            if approval:
                confirm = submitted["openedWindowIds"][0]
                authorize = (await s.call_tool(f"{confirm}__confirm", {})).structured_content["openedWindowIds"][0]
                async with anyio.create_task_group() as tg:
                    tg.start_soon(s.call_tool, f"{authorize}__authorize", {"password": "1234"})
                    await anyio.sleep(2.0)
                    ids = subprocess.run(["xdotool", "search", "--name", "Order demo"], capture_output=True, text=True).stdout.split()
                    subprocess.run(["import", "-window", "root" if native or not ids else ids[0], out], check=True)
                    tg.cancel_scope.cancel()
                print("saved", out)
                return
            await anyio.sleep(1.5)  # let the window manager-less X server paint the last frames
            ids = subprocess.run(["xdotool", "search", "--name", "Order demo"], capture_output=True, text=True).stdout.split()
            # Every window is an OS window of its own with --native-windows: grab the screen.
            target = "root" if native or not ids else ids[0]
            subprocess.run(["import", "-window", target, out], check=True)
    print("saved", out)


anyio.run(main, sys.argv[1], sys.argv[2], "--native-windows" in sys.argv[3:], "--approval" in sys.argv[3:])
