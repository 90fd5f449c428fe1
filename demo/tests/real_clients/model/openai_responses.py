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

from . import brain, ours
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


def _items(action: brain.Action, offered: dict[str, tuple[str | None, str]], n: int) -> list[dict[str, Any]]:
    """The response's output items: one function call per call (namespace split back out), or
    one message."""
    if not action.calls:
        return [{"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                 "content": [{"type": "output_text", "text": action.text, "annotations": []}]}]
    items = []
    for i, (tool, args) in enumerate(action.calls):
        ns, name = offered[tool]
        item = {"type": "function_call", "id": f"fc_{n}_{i}", "call_id": f"call_{n}_{i}", "name": name,
                "arguments": json.dumps(args or {}), "status": "completed"}
        if ns:
            item["namespace"] = ns
        items.append(item)
    return items


def _stream(items: list[dict[str, Any]], n: int) -> list[bytes]:
    """The SSE events Codex needs: the response opened, each item done, the response completed."""
    resp = {"id": f"resp_{n}", "object": "response", "status": "in_progress", "output": []}
    done = dict(resp, status="completed", output=items,
                usage={"input_tokens": 0, "output_tokens": 0, "total_tokens": 0})
    return sse(
        [("response.created", {"type": "response.created", "response": resp})]
        + [("response.output_item.done", {"type": "response.output_item.done", "output_index": i, "item": item})
           for i, item in enumerate(items)]
        + [("response.completed", {"type": "response.completed", "response": done})]
    )


def bridge_bytes(req: dict[str, Any]) -> int:
    """The bridge's part of a request (``ours.py``): its tools (Codex's namespace of them), its
    results, its instructions."""
    tools = [t for t in req.get("tools") or [] if str(t.get("name", "")).startswith("mcp__order_demo")]
    called, results, texts = set(), [], [req.get("instructions") or ""]
    for item in req.get("input") or []:
        if item.get("type") == "function_call" and _qualified(item).startswith("mcp__order_demo"):
            called.add(item.get("call_id"))
        elif item.get("type") == "function_call_output" and item.get("call_id") in called:
            results.append(item.get("output"))
        elif item.get("type") == "message":
            texts.extend(_texts(item.get("content")))
    return ours.count(tools, results, texts)


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
            return Reply(200, events, _stream(_items(brain.Action.say("OK"), offered, count), count))
        action = brain.decide(observe(req, offered))
        return Reply(200, events, _stream(_items(action, offered, count), count),
                     turn=brain.describe(action), turn_bytes=len(body), action=action, ours=bridge_bytes(req))

    return handle
