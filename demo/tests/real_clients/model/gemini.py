"""The Gemini API (``generativelanguage``, v1beta) as a scripted model.

Gemini CLI sends every model request to ``POST /v1beta/models/MODEL:streamGenerateContent?alt=sse``
or ``:generateContent`` and counts tokens with ``:countTokens``. Only a request of its main loop
offers the order-demo's tools (named ``mcp_order-demo_<tool>``): that is a model turn, decided by
the brain. The CLI's own helpers (the router's complexity classifier, the loop detector, the
next-speaker check, ...) ask for JSON matching a schema they send in ``generationConfig``; they
get a neutral instance of that schema at once, since a reply that is not JSON makes the CLI retry
with back-off for about a minute and a half.

Wire format: ``contents`` is a list of ``{role: user|model, parts}``; the model's tool calls are
``functionCall {name, args, id?}`` parts and the CLI's tool results ``functionResponse {name,
response, id?}`` parts in the next user content. The CLI renders an MCP result as
``{"output": "<untrusted_context>…</untrusted_context>"}`` and an error as ``{"error": "…"}``;
the brain reads the result text exactly as that JSON.
"""

from __future__ import annotations

import json
from typing import Any

from . import brain, ours
from .server import Adapter, Reply, sse

SERVER = "order-demo"
JSON = {"content-type": "application/json"}


def adapter() -> Adapter:
    def handle(method: str, path: str, headers: dict[str, str], body: bytes) -> Reply:
        route = path.split("?")[0]
        if method == "POST" and route.endswith(":countTokens"):
            # A rough count: the CLI only uses it to decide on compressing the history.
            return Reply(200, JSON, json.dumps({"totalTokens": max(1, len(body) // 4)}).encode())
        if method == "POST" and route.endswith((":generateContent", ":streamGenerateContent")):
            return _generate(json.loads(body or b"{}"), stream=route.endswith(":streamGenerateContent"), nbytes=len(body))
        return Reply(404, JSON, json.dumps({"error": {"code": 404, "message": f"no {method} {route} here", "status": "NOT_FOUND"}}).encode())

    return handle


def _generate(req: dict[str, Any], stream: bool, nbytes: int) -> Reply:
    offered = [f["name"] for t in req.get("tools") or [] for f in t.get("functionDeclarations") or [] if "name" in f]
    config = req.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    turn, action = None, None
    if any(SERVER in name for name in offered):
        action = brain.decide(_observe(req, offered))
        turn = brain.describe(action)
        parts = [{"functionCall": {"name": tool, "args": args}} for tool, args in action.calls] or [{"text": action.text}]
    elif schema is not None:
        parts = [{"text": json.dumps(_instance(schema))}]
    else:
        parts = [{"text": "OK"}]
    response = {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": max(1, nbytes // 4), "candidatesTokenCount": 10, "totalTokenCount": max(1, nbytes // 4) + 10},
        "modelVersion": "scripted",
    }
    if stream:
        reply = Reply(200, {"content-type": "text/event-stream"}, sse([(None, response)]))
    else:
        reply = Reply(200, JSON, json.dumps(response).encode())
    reply.turn, reply.turn_bytes = turn, nbytes if turn else 0
    reply.action = action if turn else None
    reply.ours = bridge_bytes(req) if turn else None
    return reply


def bridge_bytes(req: dict[str, Any]) -> int:
    """The bridge's part of a request (``ours.py``): its tools, its results, its instructions."""
    tools = [_without_client_params(f) for t in req.get("tools") or [] for f in t.get("functionDeclarations") or []
             if SERVER in str(f.get("name"))]
    results, texts = [], [p.get("text", "") for p in (req.get("systemInstruction") or {}).get("parts") or []]
    for content in req.get("contents") or []:
        for part in content.get("parts") or []:
            if "functionResponse" in part and SERVER in str(part["functionResponse"].get("name")):
                results.append(part["functionResponse"].get("response"))
            elif "text" in part:
                texts.append(part["text"])
    return ours.count(tools, results, texts)


def _without_client_params(decl: dict[str, Any]) -> dict[str, Any]:
    """A declaration less the parameter the CLI adds to every tool (``wait_for_previous``, how
    it runs calls of one turn): the client's bytes, not the bridge's."""
    schema = dict(decl.get("parametersJsonSchema") or {})
    props = {k: v for k, v in (schema.get("properties") or {}).items() if k != "wait_for_previous"}
    return dict(decl, parametersJsonSchema=dict(schema, properties=props))


def _observe(req: dict[str, Any], offered: list[str]) -> brain.Observation:
    """The brain's view of one main-loop request: the user's text, the tools, and each earlier
    ``functionCall`` paired with its ``functionResponse`` (by id when the CLI gives one, else in
    order, which is how Gemini pairs them)."""
    prompt: list[str] = []
    calls: list[dict[str, Any]] = []
    results: dict[str, Any] = {}
    unpaired: list[Any] = []
    for content in req.get("contents") or []:
        for part in content.get("parts") or []:
            if "text" in part and content.get("role") == "user" and not part.get("thought"):
                prompt.append(part["text"])
            elif "functionCall" in part:
                calls.append(part["functionCall"])
            elif "functionResponse" in part:
                fr = part["functionResponse"]
                if fr.get("id"):
                    results[fr["id"]] = fr.get("response")
                else:
                    unpaired.append(fr.get("response"))
    history = []
    for call in calls:
        response = results.get(call.get("id")) if call.get("id") in results else (unpaired.pop(0) if unpaired else None)
        if response is None:
            continue  # a call without its result yet: nothing learned from it
        error = isinstance(response, dict) and "error" in response
        history.append(brain.Step(call.get("name", ""), call.get("args") or {}, json.dumps(response), error))
    system = " ".join(p.get("text", "") for p in (req.get("systemInstruction") or {}).get("parts") or [])
    return brain.Observation(prompt="\n".join(prompt), offered=offered, history=history, system=system)


def _instance(schema: dict[str, Any]) -> Any:
    """A neutral value of a JSON schema: the first enum value, the minimum number, empty text
    and lists. For the CLI's helpers that means: route to the first tier, no loop (confidence
    0), the user speaks next, nothing to correct."""
    kind = str(schema.get("type", "object")).lower()
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: _instance(sub) for name, sub in props.items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return schema.get("minimum", 1 if kind == "integer" else 0)
    if kind == "boolean":
        return False
    return "n/a"
