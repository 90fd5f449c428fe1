"""The OpenAI Chat Completions API, answered by the brain.

Copilot CLI, opencode and Continue CLI reach an "OpenAI-compatible" provider through
``POST …/chat/completions`` (streamed as server-sent events when the request says ``stream``)
and may ask ``GET …/models`` first. The adapter reads one request into an ``Observation``: the
user text is the task, ``tools`` are what the client offers, and each assistant ``tool_calls``
entry is paired with the ``role: "tool"`` message answering it, its content exactly as the
client rendered the MCP result. The API has no error flag on tool results, so ``is_error`` is
left unknown and the brain reads the bridge's error JSON itself.

A request that offers none of the order-demo's tools (a title, a summary) is a side request:
it gets a short text at once and is not counted as a model turn.
"""

from __future__ import annotations

import itertools
import re
import json
import time
from typing import Any

from . import brain, ours
from .server import Reply, sse

MODEL = "scripted-model"
_ids = itertools.count(1)  # tool call ids, unique within a run


def adapter(method: str, path: str, headers: dict[str, str], body: bytes) -> Reply:
    route = path.split("?")[0].rstrip("/")
    if method == "GET" and route.endswith("/models"):
        models = {"object": "list", "data": [{"id": MODEL, "object": "model", "created": 0, "owned_by": "local"}]}
        return _json(models)
    if method == "POST" and route.endswith("/chat/completions"):
        return _chat(json.loads(body or b"{}"), len(body))
    # Anything else (a health check, an unknown side request) is answered at once, not waited on.
    return _json({"error": {"message": f"not served here: {method} {route}", "type": "not_found"}}, 404)


def _chat(req: dict[str, Any], nbytes: int) -> Reply:
    obs = observe(req)
    # The bridge's state tool is listed at every moment, under whatever name the client gives it.
    if obs.resolve(brain.READ) is None or brain.task_of(obs.prompt) is None:
        # Not a step of the task: a title or summary request. A short plain answer.
        return _answer(req, brain.Action.say("Order demo task"), None, nbytes)
    action = brain.decide(obs)
    reply = _answer(req, action, brain.describe(action), nbytes)
    reply.ours = bridge_bytes(req, obs)
    return reply


def bridge_bytes(req: dict[str, Any], obs: brain.Observation) -> int:
    """The bridge's part of a request (``ours.py``): its tools, its results, its instructions."""
    # Prefixed with the server's name, or (Continue) the bridge's own shape of name.
    mine = {n for n in obs.offered if obs.ours(n) != n or re.fullmatch(r"[\w-]+__\w+", n)}
    tools = [t for t in req.get("tools") or [] if (t.get("function") or {}).get("name") in mine]
    called = {tc.get("id") for m in req.get("messages") or [] for tc in m.get("tool_calls") or []
              if (tc.get("function") or {}).get("name") in mine}
    messages = req.get("messages") or []
    results = [m.get("content") for m in messages if m.get("role") == "tool" and m.get("tool_call_id") in called]
    texts = [_text(m.get("content")) for m in messages if m.get("role") != "tool"]
    return ours.count(tools, results, texts)


def _text(content: Any) -> str:
    """A message's content as text: a string, or the text of its parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def observe(req: dict[str, Any]) -> brain.Observation:
    """One request as the brain sees it."""
    messages = req.get("messages") or []
    offered = [t["function"]["name"] for t in req.get("tools") or [] if isinstance(t.get("function"), dict)]
    prompt = "\n".join(_text(m.get("content")) for m in messages if m.get("role") == "user")
    system = "\n".join(_text(m.get("content")) for m in messages if m.get("role") in ("system", "developer"))
    results = {m.get("tool_call_id"): _text(m.get("content")) for m in messages if m.get("role") == "tool"}
    history = []
    for m in messages:
        if m.get("role") != "assistant":
            continue
        for tc in m.get("tool_calls") or []:
            fn = tc.get("function") or {}
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except ValueError:
                args = {}
            args = args if isinstance(args, dict) else {}
            history.append(brain.Step(fn.get("name", ""), args, results.get(tc.get("id"), "")))
    return brain.Observation(prompt=prompt, offered=offered, history=history, system=system)


def _answer(req: dict[str, Any], action: brain.Action, turn: str | None, nbytes: int) -> Reply:
    """The action as a chat completion: streamed chunks or one JSON body, as the request asked."""
    created = int(time.time())
    cid = f"chatcmpl-{created}"
    # Rough token counts (4 bytes a token): clients that budget their context want some.
    usage = {"prompt_tokens": nbytes // 4, "completion_tokens": 8, "total_tokens": nbytes // 4 + 8}
    if action.calls:
        calls = [
            {"id": f"call_{next(_ids)}", "type": "function", "function": {"name": tool, "arguments": json.dumps(args)}}
            for tool, args in action.calls
        ]
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": calls}
        finish = "tool_calls"
        delta: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [{"index": i, **c} for i, c in enumerate(calls)]}
    else:
        message = {"role": "assistant", "content": action.text}
        finish = "stop"
        delta = {"role": "assistant", "content": action.text}
    base = {"id": cid, "created": created, "model": req.get("model") or MODEL}
    if not req.get("stream"):
        choice = {"index": 0, "message": message, "finish_reason": finish}
        reply = _json({**base, "object": "chat.completion", "choices": [choice], "usage": usage})
    else:
        chunk = {**base, "object": "chat.completion.chunk"}
        events = [
            {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
        ]
        if (req.get("stream_options") or {}).get("include_usage"):
            events.append({**chunk, "choices": [], "usage": usage})
        stream = sse([(None, e) for e in events] + [(None, "[DONE]")])
        reply = Reply(200, {"content-type": "text/event-stream", "cache-control": "no-cache"}, stream)
    reply.turn = turn
    reply.turn_bytes = nbytes if turn is not None else 0
    reply.action = action if turn is not None else None
    return reply


def _json(value: Any, status: int = 200) -> Reply:
    return Reply(status, {"content-type": "application/json"}, json.dumps(value).encode())
