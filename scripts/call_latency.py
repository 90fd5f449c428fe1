"""Round-trip time of an agent call to the demo in a real window, over HTTP.

usage: DISPLAY=:N python call_latency.py <order-demo binary> [calls] [--native-windows]

Starts the demo windowed (not headless) serving HTTP on a free port, opens a draft order, and
makes `calls` edit_field calls one after another (each waits for the previous answer), then
prints p50, p90, p99 and max in milliseconds. Run under Xvfb (Mesa's software OpenGL) on an
otherwise quiet machine; compare two binaries on the same display. Not a test: timings are
printed, never asserted.
"""

import os
import statistics
import subprocess
import sys
import time

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def start(binary, native):
    args = [binary, "--http", "127.0.0.1:0"] + (["--native-windows"] if native else [])
    env = dict(os.environ, RUST_LOG="warn")
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    for line in proc.stderr:
        if line.startswith("MCP over streamable HTTP: "):
            return proc, line.split(": ", 1)[1].strip()
    raise RuntimeError("the demo printed no URL")


async def measure(url, calls):
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as s:
            await s.initialize()
            r = await s.call_tool("orders__load_orders", {"status": "Draft", "limit": 1})
            order = r.structured_content["result"]["rows"][0][0]
            r = await s.call_tool("orders__open_order", {"order": order})
            editor = r.structured_content["openedWindowIds"][0]
            await anyio.sleep(1.0)  # let the window settle
            times = []
            for i in range(calls):
                start = time.perf_counter()
                r = await s.call_tool(f"{editor}__edit_field", {"field": "address", "value": f"{i} Main Street"})
                times.append((time.perf_counter() - start) * 1000)
                assert not r.is_error, r.structured_content
            return times


def main():
    binary = sys.argv[1]
    calls = int(next((a for a in sys.argv[2:] if a.isdigit()), "200"))
    native = "--native-windows" in sys.argv
    proc, url = start(binary, native)
    try:
        times = anyio.run(measure, url, calls)
    finally:
        proc.kill()
        proc.wait()
    q = statistics.quantiles(times, n=100)
    print(f"{calls} edit_field calls in a window over HTTP: p50 {q[49]:.1f} ms, p90 {q[89]:.1f} ms, p99 {q[98]:.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
