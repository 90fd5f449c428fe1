"""The bridge's part of one model request: what the bridge made the client send its model.

Three things in a request come from the bridge: the definitions of its tools (as the client
rewrote them for its API), the text of its tool results (as the client rendered them) and its
instructions (wherever the client put them: system text, a reminder in a user turn). The rest
is the client's own: its system prompt, its own tools, the user's task. Counted for the run's
report only; the brain never sees this.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

# The demo's instructions start with the bridge's first sentence and end with the demo's own
# notes (src/server/instructions.rs, demo/src/main.rs); the client may quote them anywhere.
INSTRUCTIONS_START = "You operate a multi-window desktop app for the user."
INSTRUCTIONS_END = "(PIN 1234)."


def size(value: Any) -> int:
    """Bytes of a value as it travels in a JSON request body."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return len(json.dumps(text)) - 2 if isinstance(value, str) else len(text.encode())


def instructions(texts: Iterable[str]) -> int:
    """Bytes of every copy of the bridge's instructions in these texts."""
    total = 0
    for text in texts:
        start = text.find(INSTRUCTIONS_START)
        while start >= 0:
            end = text.find(INSTRUCTIONS_END, start)
            end = len(text) if end < 0 else end + len(INSTRUCTIONS_END)
            total += size(text[start:end])
            start = text.find(INSTRUCTIONS_START, end)
    return total


def count(tools: Iterable[Any], results: Iterable[Any], texts: Iterable[str]) -> int:
    """The bridge's bytes: its tool definitions, its results, its instructions."""
    return sum(size(t) for t in tools) + sum(size(r) for r in results) + instructions(texts)
