"""A stdio MCP client configured as the README tells a person to configure one: command the demo,
args ["--stdio"], no environment of its own (the SDK passes HOME, PATH and a few others only).
With the demo already open, the process it starts attaches to that one; the client opens an
order there and quits. Prints PASS attach; the relay's stderr is passed through."""

import asyncio
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(demo):
    params = StdioServerParameters(command=demo, args=["--stdio"])
    async with stdio_client(params, errlog=sys.stderr) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "order-demo", init.server_info
            result = await session.call_tool("orders__open_order", {"order": "#10004"})
            assert not result.is_error, result
            assert result.structured_content["openedWindowIds"] == ["order-10004"], result.structured_content
    print("PASS attach")


asyncio.run(main(sys.argv[1]))
