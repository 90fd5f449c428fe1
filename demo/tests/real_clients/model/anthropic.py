"""The Anthropic Messages API (``POST /v1/messages``, SSE when ``stream`` is set), for the brain.

What a request tells the model, as Claude Code sends it:

- ``tools``: the tools the model may call. A tool with ``defer_loading: true`` is callable only
  once a ``tool_reference`` block naming it came back in a tool result (the loader's answer);
  until then the model knows only its name.
- Deferred tools are announced by name in text from the system (a ``role: "system"`` message
  inside ``messages``, or a ``<system-reminder>`` in a user turn): a paragraph whose first line
  says they are available (``The following deferred tools are now available via ToolSearch...``)
  and then one name per line; a paragraph saying tools are ``no longer available`` withdraws
  names the same way. Both also come as one sentence ending in ``: name, name.``
- The loader is the tool those announcements name (Claude Code's ``ToolSearch``), whose query
  ``select:a,b,c`` loads several tools at once.
- A tool call is an assistant ``tool_use`` block; its result a user ``tool_result`` block, whose
  ``content`` is a string or a list of blocks, with ``is_error`` on failures.

A request that offers neither our tools nor the loader is a side request (a title, a summary):
it gets a short text answer and is not a turn. ``count_tokens`` and model lists are answered
at once.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import brain, ours
from .server import Reply, sse

OUR_SERVER = "order-demo"
# A line that is a tool name in an announcement (never a sentence: no spaces).
NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")
# The announcement that names the loader: "... deferred tools are now available via ToolSearch."
LOADER_IN_TEXT = re.compile(r"deferred tools? (?:are|is) (?:now )?available via (\w+)")


def adapter():
    return handle


def handle(method: str, path: str, headers: dict[str, str], body: bytes) -> Reply:
    route = path.split("?")[0]
    if method == "POST" and route.endswith("/messages/count_tokens"):
        return _json({"input_tokens": _tokens(body)})
    if method == "POST" and route.endswith("/messages"):
        return _messages(json.loads(body), body)
    if method == "GET" and route.endswith("/models"):
        return _json({"data": [], "has_more": False, "first_id": None, "last_id": None})
    return _json({"type": "error", "error": {"type": "not_found_error", "message": f"{method} {route}"}}, 404)


def _messages(req: dict[str, Any], body: bytes) -> Reply:
    obs = observe(req)
    mine = [n for n in obs.offered + obs.deferred if OUR_SERVER in n]
    if not mine and obs.loader is None:
        return _answer(req, body, brain.Action.say("OK"), turn=False)
    reply = _answer(req, body, brain.decide(obs), turn=True)
    reply.ours = bridge_bytes(req)
    return reply


def bridge_bytes(req: dict[str, Any]) -> int:
    """The bridge's part of a request (``ours.py``): its tools, its results, its instructions."""
    tools = [t for t in req.get("tools") or [] if OUR_SERVER in str(t.get("name"))]
    names, results, texts = {}, [], [_text(req.get("system"))]
    for m in req.get("messages") or []:
        for block in _blocks(m.get("content")):
            if block.get("type") == "tool_use":
                names[block.get("id")] = str(block.get("name"))
            elif block.get("type") == "tool_result" and OUR_SERVER in names.get(block.get("tool_use_id"), ""):
                results.append(block.get("content"))
            elif block.get("type") == "text":
                texts.append(block.get("text", ""))
    return ours.count(tools, results, texts)


def observe(req: dict[str, Any]) -> brain.Observation:
    """One request as the brain sees it: task, tools callable now, deferred names, history."""
    messages = req.get("messages") or []
    prompt: list[str] = []
    system: list[str] = [_text(req.get("system"))]
    results: dict[str, dict[str, Any]] = {}
    referenced: set[str] = set()
    for m in messages:
        for block in _blocks(m.get("content")):
            if block.get("type") == "tool_result":
                results[block.get("tool_use_id")] = block
                referenced |= {b.get("tool_name") for b in _blocks(block.get("content")) if b.get("type") == "tool_reference"}
            elif block.get("type") == "text" and m.get("role") == "user":
                prompt.append(block.get("text", ""))
            elif block.get("type") == "text" and m.get("role") == "system":
                system.append(block.get("text", ""))
    history = []
    for m in messages:
        if m.get("role") != "assistant":
            continue
        for block in _blocks(m.get("content")):
            if block.get("type") == "tool_use" and block.get("id") in results:
                r = results[block["id"]]
                history.append(brain.Step(block["name"], block.get("input") or {}, _text(r.get("content")), bool(r.get("is_error"))))
    tools = req.get("tools") or []
    offered = [t["name"] for t in tools if "name" in t and (not t.get("defer_loading") or t["name"] in referenced)]
    # Announcements come in system text and in system reminders inside user turns.
    announced = deferred_names(system + prompt)
    loaders = {m.group(1) for m in LOADER_IN_TEXT.finditer("\n".join(system + prompt))}
    loader = next((n for n in offered if n in loaders), None)
    return brain.Observation(
        prompt="\n".join(prompt),
        offered=offered,
        history=history,
        system="\n".join(system),
        deferred=[n for n in announced if n not in offered],
        loader=loader,
    )


def deferred_names(texts: list[str]) -> list[str]:
    """Names announced as deferred, in order, less those withdrawn since."""
    names: dict[str, None] = {}
    for text in texts:
        for para in re.split(r"\n\s*\n", text):
            head, _, rest = para.strip().partition("\n")
            withdrawn = "no longer available" in head
            if "available" not in head or ("deferred tool" not in head and not withdrawn):
                continue
            listed = [n.strip() for n in rest.splitlines() if NAME.match(n.strip())]
            if not listed and ": " in head:  # one sentence: "...: a, b. Load via ToolSearch as before."
                listed = [n.strip() for n in head.rsplit(": ", 1)[1].split(". ")[0].rstrip(".").split(",")]
                listed = [n for n in listed if NAME.match(n)]
            for n in listed:
                if withdrawn:
                    names.pop(n, None)
                else:
                    names[n] = None
    return list(names)


def _answer(req: dict[str, Any], body: bytes, action: brain.Action, turn: bool) -> Reply:
    n = len(req.get("messages") or [])
    if action.calls:
        blocks = [
            {"type": "tool_use", "id": f"toolu_{n:04d}_{i}", "name": tool, "input": args or {}}
            for i, (tool, args) in enumerate(action.calls)
        ]
        stop = "tool_use"
    else:
        blocks = [{"type": "text", "text": action.text or ""}]
        stop = "end_turn"
    usage = {"input_tokens": _tokens(body), "output_tokens": 10}
    message = {
        "id": f"msg_{n:04d}", "type": "message", "role": "assistant", "model": req.get("model", "scripted"),
        "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": usage,
    }
    reply = _json(message)
    if req.get("stream"):
        events = [("message_start", {"type": "message_start", "message": dict(message, content=[], stop_reason=None)})]
        for i, block in enumerate(blocks):
            calls = block["type"] == "tool_use"
            start = dict(block, input={}) if calls else dict(block, text="")
            delta = (
                {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
                if calls
                else {"type": "text_delta", "text": block["text"]}
            )
            events += [
                ("content_block_start", {"type": "content_block_start", "index": i, "content_block": start}),
                ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}),
                ("content_block_stop", {"type": "content_block_stop", "index": i}),
            ]
        events += [
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 10}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        reply = Reply(headers={"content-type": "text/event-stream", "cache-control": "no-cache"}, body=sse(events))
    if turn:
        reply.turn = brain.describe(action)
        reply.turn_bytes = len(body)
        reply.action = action
    return reply


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def _text(content: Any) -> str:
    """A content value as the model reads it: text blocks joined; a loaded tool by its name."""
    parts = []
    for b in _blocks(content):
        if b.get("type") == "text":
            parts.append(b.get("text", ""))
        elif b.get("type") == "tool_reference":
            parts.append(b.get("tool_name", ""))
    return "\n".join(parts)


def _tokens(body: bytes) -> int:
    """A plausible token count (about four bytes a token): keeps the client's budget maths sane."""
    return max(1, len(body) // 4)


def _json(value: Any, status: int = 200) -> Reply:
    return Reply(status, {"content-type": "application/json"}, json.dumps(value).encode())
