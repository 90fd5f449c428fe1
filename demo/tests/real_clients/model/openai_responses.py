"""The OpenAI Responses API (``POST {base_url}/responses``, SSE), as Codex speaks it.

Codex sends the whole conversation in every request (``store: false``): ``input`` holds the
developer/user messages and each earlier ``function_call`` with its ``function_call_output``;
``tools`` holds plain functions and ``namespace`` groups. An MCP server's tools come as one
namespace (``mcp__order_demo``) whose inner tools keep the server's names, and the model's call
names the namespace and the inner name separately. The brain gets one flat name per tool,
``<namespace>.<name>``, which it maps to ours like any client prefix.

A request that offers no order-demo tool is a side request (none seen from ``codex exec``
0.169, but a compaction or helper request would be one): it gets a short text answer at once.
"""

from __future__ import annotations

import json
from typing import Any

from . import brain
from .server import Reply, sse


def _texts(content: Any) -> list[str]:
    """The text parts of a message's or a tool output's content (a string or a list of parts)."""
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return []


def _qualified(item: dict[str, Any]) -> str:
    """One flat name for a tool or a call: ``namespace.name`` when it has a namespace."""
    ns = item.get("namespace")
    return f"{ns}.{item['name']}" if ns else item["name"]


def _offered(tools: list[dict[str, Any]]) -> dict[str, tuple[str | None, str]]:
    """Flat name -> (namespace, name) for every function the request offers."""
    out: dict[str, tuple[str | None, str]] = {}
    for t in tools:
        if t.get("type") == "function":
            out[t["name"]] = (None, t["name"])
        elif t.get("type") == "namespace":
            for inner in t.get("tools") or []:
                if inner.get("type") == "function":
                    out[f"{t['name']}.{inner['name']}"] = (t["name"], inner["name"])
    return out


def _offers_demo(offered: dict[str, tuple[str | None, str]]) -> bool:
    """Whether the request offers any order-demo tool (else it is a side request)."""
    return any(name.startswith("mcp__order_demo.") for name in offered)


def observe(req: dict[str, Any], offered: dict[str, tuple[str | None, str]]) -> brain.Observation:
    """The brain's view of one request: the task, the tools offered, the calls and results."""
    prompt, system = [], [req.get("instructions") or ""]
    calls: dict[str, dict[str, Any]] = {}
    history: list[brain.Step] = []
    for item in req.get("input") or []:
        kind = item.get("type")
        if kind == "message":
            (prompt if item.get("role") == "user" else system).extend(_texts(item.get("content")))
        elif kind == "function_call":
            calls[item["call_id"]] = item
        elif kind == "function_call_output" and item.get("call_id") in calls:
            call = calls[item["call_id"]]
            try:
                args = json.loads(call.get("arguments") or "{}")
            except ValueError:
                args = {}
            # Codex marks no error on an output: the brain reads errors from the text.
            history.append(brain.Step(_qualified(call), args, "\n".join(_texts(item.get("output")))))
    return brain.Observation(
        prompt="\n".join(prompt),
        offered=list(offered),
        history=history,
        system="\n".join(s for s in system if s),
    )


def _item(action: brain.Action, offered: dict[str, tuple[str | None, str]], n: int) -> dict[str, Any]:
    """The response's one output item: a function call (namespace split back out) or a message."""
    if action.tool is None:
        return {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": action.text, "annotations": []}]}
    ns, name = offered[action.tool]
    item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
            "arguments": json.dumps(action.args or {}), "status": "completed"}
    if ns:
        item["namespace"] = ns
    return item


def _stream(item: dict[str, Any], n: int) -> list[bytes]:
    """The SSE events Codex needs: the response opened, its item done, the response completed."""
    resp = {"id": f"resp_{n}", "object": "response", "status": "in_progress", "output": []}
    done = dict(resp, status="completed", output=[item],
                usage={"input_tokens": 0, "output_tokens": 0, "total_tokens": 0})
    return sse([
        ("response.created", {"type": "response.created", "response": resp}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": done}),
    ])


def adapter():
    """A fresh adapter (its own response counter, for unique item ids within a run)."""
    count = 0

    def handle(method: str, path: str, headers: dict[str, str], body: bytes) -> Reply:
        nonlocal count
        if method != "POST" or not path.split("?")[0].endswith("/responses"):
            return Reply(404, {"content-type": "application/json"}, b'{"error":{"message":"not served here"}}')
        count += 1
        req = json.loads(body)
        offered = _offered(req.get("tools") or [])
        events = {"content-type": "text/event-stream"}
        if not _offers_demo(offered):
            return Reply(200, events, _stream(_item(brain.Action.say("OK"), offered, count), count))
        action = brain.decide(observe(req, offered))
        return Reply(200, events, _stream(_item(action, offered, count), count),
                     turn=brain.describe(action), turn_bytes=len(body))

    return handle
