"""The scripted model's mind: one policy shared by every provider API.

It decides each step only from what the client sent in that one request: the task (the user's
prompt), the tools the client offers its model now, and the conversation so far (each earlier
tool call with the result text exactly as the client rendered it). It never asks the app.

A provider adapter (``adapters/*.py``) turns a request of its API into an ``Observation`` and
the ``Action`` returned here into that API's response. The tool names the brain thinks in are
the bridge's (``orders__open_order``); ``Observation.resolve`` maps them to the client's own
(``mcp__order-demo__orders__open_order``, ``mcp_order-demo_orders__open_order``, ...).

The policy is what a careful model does with this bridge: read the state, open a draft order,
fill the fields with ``edit_field`` (all in one call when the schema it was shown takes
``fields``, else one per call) carrying the version each result gives, add an item,
submit, confirm, authorize; lock then unlock for the second task. A tool the client does not
offer is called through the bridge's dispatcher for its safety class. Errors lead to a re-read
and a retry, a bounded number of times; then it gives up with a final answer starting
``FAILED``, which the runner reports.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

# Tasks, recognised from the user's prompt.
ORDER_TASK = "order"
BATCH_TASK = "batch"
LOCK_TASK = "lock"

ORDER_PROMPT = (
    "Use the order-demo MCP server's tools. Open a draft order from the Orders window, set its "
    "recipient to Grace Hopper, address to 1 Main Street and currency to USD, "
    "add 2 x Green tea at 4.5, submit it, confirm it and authorize the payment with password "
    "1234. Say DONE when the order is submitted."
)
BATCH_PROMPT = (
    "Use the order-demo MCP server's tools. Open the first two draft orders of the Orders window; "
    "in each, set the recipient to Grace Hopper and the address to 1 Main Street, and add "
    "1 x Green tea at 4.5. Send independent tool calls together in one turn. Say DONE when both "
    "orders are done."
)
LOCK_PROMPT = (
    "Use the order-demo MCP server's tools. Lock the session, then unlock it with PIN 1234. "
    "Say DONE when it is unlocked."
)

EDITS = [("recipient", "Grace Hopper"), ("address", "1 Main Street"), ("currency", "USD")]

READ = "app__read_windows"
# The bridge's dispatchers, by the safety class of the tool they call.
DISPATCHERS = ["app__call", "app__call_destructive", "app__call_readonly"]
MAX_FAILURES = 6


def task_of(prompt: str) -> str | None:
    if "Lock the session" in prompt:
        return LOCK_TASK
    if "Open a draft order" in prompt:
        return ORDER_TASK
    if "Open the first two draft orders" in prompt:
        return BATCH_TASK
    return None


@dataclass
class Step:
    """One earlier tool call of the conversation, as the client sent it back."""

    name: str  # the client's tool name
    args: dict[str, Any]
    result_text: str  # the result as the client rendered it for its model
    is_error: bool | None = None  # when the client's API marks errors


@dataclass
class Observation:
    prompt: str  # the user's task text (all user text joined)
    offered: list[str]  # tool names the client offers its model in this request
    history: list[Step] = field(default_factory=list)
    system: str = ""  # instructions / system text as sent (for the record)
    # Tools the client knows but defers behind a loader (Claude Code's ToolSearch).
    deferred: list[str] = field(default_factory=list)
    loader: str | None = None  # the client's name of that loader tool, when offered

    def resolve(self, ours: str, names: list[str] | None = None) -> str | None:
        """The client's name for one of our tools among ``names`` (default: offered)."""
        for n in self.offered if names is None else names:
            if n == ours:
                return n
            if n.endswith(ours) and n[-len(ours) - 1] in "_-.":
                return n
        return None

    def ours(self, client_name: str) -> str:
        """Our tool name for a client's name: what follows the server's name (``order-demo``)
        and the client's separator, else the name itself."""
        m = re.search(r"order[-_]demo[-_.]+", client_name)
        return client_name[m.end():] if m else client_name


@dataclass
class Action:
    """Tool calls (in the client's names; several when the model batches them in one turn) or
    a final text answer. ``errors`` and ``stale`` count the errors the conversation so far showed
    the model (for the run's report, never for the decision)."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    text: str | None = None
    errors: int = 0
    stale: int = 0

    @staticmethod
    def call(tool: str, args: dict[str, Any]) -> "Action":
        return Action(calls=[(tool, args)])

    @staticmethod
    def say(text: str) -> "Action":
        return Action(text=text)

    @staticmethod
    def together(actions: list["Action"]) -> "Action":
        """Several calls in one turn; a text among them (a failure) stands alone."""
        for a in actions:
            if a.text is not None:
                return a
        return Action(calls=[c for a in actions for c in a.calls])


# ---------------------------------------------------------------------------------------------
# Reading results as clients render them


def _objects(value: Any, depth: int = 0):
    """Every JSON object reachable from a decoded value, strings parsed again (escaped forms)."""
    if depth > 6:
        return
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _objects(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            yield from _objects(v, depth + 1)
    elif isinstance(value, str):
        yield from _objects_in_text(value, depth + 1)


def _objects_in_text(text: str, depth: int = 0):
    dec = json.JSONDecoder()
    i = 0
    while True:
        starts = [p for p in (text.find("{", i), text.find("[", i)) if p >= 0]
        if not starts:
            return
        i = min(starts)
        try:
            value, end = dec.raw_decode(text, i)
        except ValueError:
            i += 1
            continue
        yield from _objects(value, depth)
        i = end


KEYS = {"message", "code", "result", "openedWindowIds", "operableWindowIds", "version", "newTools"}


def parse_result(text: str) -> dict[str, Any] | None:
    """The bridge's result object inside a client's rendering of it; None when there is none
    (every client tried shows its model the result's JSON, so text alone is the client's own
    words: a refusal such as Codex's "requires approval", never a result of the app)."""
    for obj in _objects_in_text(text):
        if KEYS & obj.keys() and ("message" in obj or "code" in obj or "result" in obj or "operableWindowIds" in obj):
            return obj
    return None


def is_error(step: Step, parsed: dict[str, Any]) -> bool:
    if "code" in parsed and isinstance(parsed.get("code"), str):
        return True
    return bool(step.is_error)


def state_in(parsed: dict[str, Any]) -> dict[str, Any] | None:
    """The windows state inside a read's result (`app__read_windows` → {"result": state})."""
    for obj in (parsed.get("result"), parsed):
        if isinstance(obj, dict) and "operableWindowIds" in obj and "windows" in obj:
            return obj
    return None


# ---------------------------------------------------------------------------------------------
# The policy


@dataclass
class Known:
    """What the conversation so far tells."""

    state: dict[str, Any] | None = None
    editor: str | None = None
    version: int | None = None  # the editor's version, as the last result gave it
    edited: set[str] = field(default_factory=set)
    added: bool = False
    confirm: str | None = None
    authorize: str | None = None
    submitted: bool = False
    lock: str | None = None
    unlocked: bool = False
    failures: int = 0
    stale: int = 0  # of the failures, stale_state ones
    last_error: str | None = None
    via: dict[str, str] = field(default_factory=dict)  # tool -> dispatcher the bridge named
    specs: dict[str, dict] = field(default_factory=dict)  # tool -> spec (newToolSpecs / tools)


def _window_version(state: dict[str, Any], win: str) -> int | None:
    for w in state.get("windows", []):
        if w.get("id") == win:
            return w.get("version")
    return None


def learn(obs: Observation) -> Known:
    k = Known()
    for step, inner_name, args, p in _steps(obs):
        if p is None:
            k.failures += 1
            k.last_error = "not a result of the app: " + step.result_text[:80]
            continue
        if is_error(step, p):
            _failed(k, obs, step, inner_name, p)
            if p.get("code") == "stale_state" and isinstance(p.get("currentVersion"), int):
                k.version = p["currentVersion"]
            continue
        _succeeded(k, p)
        state = state_in(p)
        if state is not None:
            _read(k, state)
            if k.editor:
                v = _window_version(state, k.editor)
                if v is not None:
                    k.version = v
            continue
        action = inner_name.rsplit("__", 1)[-1]
        opened = p.get("openedWindowIds") or []
        if action == "open_order" and opened:
            k.editor = opened[0]
            versions = p.get("openedWindowVersions") or {}
            k.version = versions.get(k.editor) if isinstance(versions, dict) else None
            if k.version is None:
                k.version = 1  # a window just opened is at its first version
        elif k.editor and inner_name.startswith(k.editor + "__"):
            if isinstance(p.get("version"), int):
                k.version = p["version"]
            if action == "edit_field":
                k.edited.add(str(args.get("field")))
                several = args.get("fields")
                if isinstance(several, dict):
                    k.edited.update(str(f) for f in several)
            elif action == "add_item":
                k.added = True
            elif action == "submit" and opened:
                k.confirm = opened[0]
        elif action == "confirm" and opened:
            k.authorize = opened[0]
        elif action == "authorize":
            k.submitted = True
        elif inner_name == "app__lock" and opened:
            k.lock = opened[0]
        elif action == "unlock":
            k.unlocked = True
    return k


def _read(k: Known, state: dict[str, Any]) -> None:
    """A read: the state, and the tools' specs it lists."""
    k.state = state
    for spec in state.get("tools") or []:
        if isinstance(spec, dict) and "name" in spec:
            k.specs[spec["name"]] = spec


def _failed(k: Known, obs: Observation, step: Step, inner_name: str, p: dict[str, Any]) -> None:
    """An error result: counted, and a dispatcher of the wrong class names the right one."""
    k.failures += 1
    k.last_error = p.get("code") or "error"
    if p.get("code") == "stale_state":
        k.stale += 1
    m = re.search(r"(app__call\w*)", str(p.get("message", "")))
    if m and m.group(1) != obs.ours(step.name):
        k.via[inner_name] = m.group(1)


def _succeeded(k: Known, p: dict[str, Any]) -> None:
    """A success: the tools it made known (their specs)."""
    k.last_error = None
    for spec in p.get("newToolSpecs") or []:
        if isinstance(spec, dict) and "name" in spec:
            k.specs[spec["name"]] = spec


def _steps(obs: Observation):
    """Each earlier call of ours as (step, our tool name, its arguments, parsed result or None):
    a dispatched call under the tool it dispatched; the client's own tools (a loader) left out."""
    for step in obs.history:
        inner_name = obs.ours(step.name)
        args = step.args or {}
        if inner_name in DISPATCHERS:
            inner_name = str(args.get("tool", ""))
            args = args.get("arguments") or {}
        if re.fullmatch(r"[\w-]+__\w+", inner_name):
            yield step, inner_name, args, parse_result(step.result_text)


def _dispatcher_for(k: Known, tool: str) -> str:
    if tool in k.via:
        return k.via[tool]
    spec = k.specs.get(tool) or {}
    if isinstance(spec.get("via"), str):
        return spec["via"]
    return "app__call"


def call(obs: Observation, k: Known, tool: str, args: dict[str, Any]) -> Action:
    """Calls one of our tools: directly when offered, else through a dispatcher, else loads it."""
    direct = obs.resolve(tool)
    if direct:
        return Action.call(direct, args)
    wanted = _dispatcher_for(k, tool) if tool != READ else READ
    for d in [wanted] + [d for d in DISPATCHERS if d != wanted]:
        name = obs.resolve(d)
        if name and tool != READ:
            return Action.call(name, {"tool": tool, "arguments": args})
        if name and tool == READ:
            return Action.call(name, {})
    # Deferred behind a loader: load the state tool and every dispatcher in one go.
    if obs.loader:
        want = [READ, tool] + DISPATCHERS
        names = [n for n in (obs.resolve(w, obs.deferred) for w in want) if n]
        if names:
            return Action.call(obs.loader, {"query": "select:" + ",".join(dict.fromkeys(names)), "max_results": 10})
    return Action.say(f"FAILED: no way to call {tool}: offered {obs.offered}")


def decide(obs: Observation) -> Action:
    """The next turn's action, with the errors seen so far counted on it."""
    task = task_of(obs.prompt)
    if task is None:
        return Action.say("FAILED: unknown task")
    if task == BATCH_TASK:
        b = learn_batch(obs)
        action, k = decide_batch(obs, b), b.known
    else:
        k = learn(obs)
        action = _decide(obs, task, k)
    action.errors, action.stale = k.failures, k.stale
    return action


def _decide(obs: Observation, task: str, k: Known) -> Action:
    if k.failures > MAX_FAILURES:
        return Action.say(f"FAILED: {k.failures} errors, the last {k.last_error}")
    if len(obs.history) > 40:
        return Action.say("FAILED: too many steps")
    if k.last_error:
        # After an error: read the state again before deciding.
        return call(obs, k, READ, {})
    if task == LOCK_TASK:
        if k.unlocked:
            return Action.say("DONE: locked and unlocked")
        if k.lock:
            return call(obs, k, f"{k.lock}__unlock", {"pin": "1234"})
        return call(obs, k, "app__lock", {})
    # The order task.
    if k.submitted:
        return Action.say("DONE: the order is submitted")
    if k.authorize:
        return call(obs, k, f"{k.authorize}__authorize", {"password": "1234"})
    if k.confirm:
        return call(obs, k, f"{k.confirm}__confirm", {})
    if k.editor is None:
        if k.state is None:
            return call(obs, k, READ, {})
        draft = _draft(k.state)
        if draft is None:
            return Action.say("FAILED: no draft order in the Orders window")
        return call(obs, k, "orders__open_order", {"order": draft})
    if k.version is None:
        return call(obs, k, READ, {})
    v = {"expectedVersion": k.version}
    todo = [(f, value) for f, value in EDITS if f not in k.edited]
    if todo:
        edit = f"{k.editor}__edit_field"
        if _takes_several(k, edit):
            # The schema it was shown takes several fields at once: one call fills the form.
            return call(obs, k, edit, {"fields": dict(todo), **v})
        f, value = todo[0]
        return call(obs, k, edit, {"field": f, "value": value, **v})
    if not k.added:
        return call(obs, k, f"{k.editor}__add_item", {"product": "Green tea", "quantity": 2, "unitPrice": 4.5, **v})
    return call(obs, k, f"{k.editor}__submit", v)


# ---------------------------------------------------------------------------------------------
# The batching policy: several calls per turn, at most one write per window


BATCH_EDITS = {"recipient": "Grace Hopper", "address": "1 Main Street"}
BATCH_ITEM = {"product": "Green tea", "quantity": 1, "unitPrice": 4.5}


@dataclass
class Board:
    """What the conversation tells a model that works on several windows at once: each
    window's version as the last result gave it (a read's, a call's ``version``, an opened
    window's ``openedWindowVersions``, a ``stale_state``'s ``currentVersion``), and per draft
    order its editor and the steps done there."""

    known: Known = field(default_factory=Known)
    versions: dict[str, int] = field(default_factory=dict)
    drafts: list[str] = field(default_factory=list)
    editor_of: dict[str, str] = field(default_factory=dict)  # draft -> its editor's window id
    edited: set[str] = field(default_factory=set)  # editors whose fields are set
    added: set[str] = field(default_factory=set)  # editors whose item is added


def learn_batch(obs: Observation) -> Board:
    b = Board()
    k = b.known
    for step, inner_name, args, p in _steps(obs):
        win, _, action = inner_name.rpartition("__")
        if p is None:
            k.failures += 1
            continue
        if is_error(step, p):
            _failed(k, obs, step, inner_name, p)
            if isinstance(p.get("currentVersion"), int):
                b.versions[win] = p["currentVersion"]
            continue
        _succeeded(k, p)
        state = state_in(p)
        if state is not None:
            _read(k, state)
            b.versions.update({w["id"]: w["version"] for w in state.get("windows", []) if "version" in w})
            b.drafts = _drafts(state)[:2]
            continue
        if isinstance(p.get("version"), int):
            b.versions[win] = p["version"]
        opened = p.get("openedWindowIds") or []
        versions = p.get("openedWindowVersions") or {}
        for w in opened:
            b.versions[w] = versions.get(w, 1) if isinstance(versions, dict) else 1
        if action == "open_order" and opened:
            b.editor_of[str(args.get("order"))] = opened[0]
        elif action == "edit_field":
            b.edited.add(win)
        elif action == "add_item":
            b.added.add(win)
    return b


def decide_batch(obs: Observation, b: Board) -> Action:
    """Every step that can go now, together: the next draft to open (one call to the Orders
    window) and, in each open editor, its next step (one call each). Two writes to one window
    never go in one turn: both would carry the version read before either, and the second would
    be ``stale_state`` (spec §7.1). Each call carries the version the last result gave."""
    k = b.known
    if k.failures > MAX_FAILURES:
        return Action.say(f"FAILED: {k.failures} errors, the last {k.last_error}")
    if len(obs.history) > 40:
        return Action.say("FAILED: too many steps")
    if k.state is None:
        return call(obs, k, READ, {})
    if len(b.drafts) < 2:
        return Action.say("FAILED: fewer than two draft orders in the Orders window")

    def versioned(win: str) -> dict[str, Any]:
        return {"expectedVersion": b.versions[win]} if win in b.versions else {}

    calls = []
    unopened = [d for d in b.drafts if d not in b.editor_of]
    if unopened:
        calls.append(call(obs, k, "orders__open_order", {"order": unopened[0], **versioned("orders")}))
    for draft in b.drafts:
        editor = b.editor_of.get(draft)
        if editor is None:
            continue
        if editor not in b.edited:
            calls.append(call(obs, k, f"{editor}__edit_field", {"fields": BATCH_EDITS, **versioned(editor)}))
        elif editor not in b.added:
            calls.append(call(obs, k, f"{editor}__add_item", {**BATCH_ITEM, **versioned(editor)}))
    if not calls:
        return Action.say("DONE: both orders are done")
    return Action.together(calls)


def _drafts(state: dict[str, Any]) -> list[str]:
    """The Order column of each Draft row of the Orders window's table, in order."""
    out = []
    for w in state.get("windows", []):
        if w.get("id") != "orders":
            continue
        for blk in w.get("blocks", []):
            if blk.get("type") == "table":
                out += [row[0] for row in blk.get("rows", []) if isinstance(row, list) and len(row) > 2 and row[2] == "Draft"]
    return out


def _takes_several(k: Known, tool: str) -> bool:
    """Whether the tool's schema, as a result showed it (newToolSpecs, app__read_windows' tools),
    takes several fields at once."""
    schema = (k.specs.get(tool) or {}).get("inputSchema") or {}
    return isinstance(schema, dict) and "fields" in (schema.get("properties") or {})


def _draft(state: dict[str, Any]) -> str | None:
    drafts = _drafts(state)
    return drafts[0] if drafts else None


def describe(action: Action) -> str:
    """One line for the turn log: ``call NAME ARGS`` or ``say TEXT``. Secrets are not masked:
    the only ones here are the demo's published password and PIN."""
    if action.calls:
        return " + ".join(f"call {tool} {json.dumps(args, separators=(',', ':'))}" for tool, args in action.calls)
    return f"say {action.text}"
