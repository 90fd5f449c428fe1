#!/usr/bin/env python3
"""Runs one real agent program against the demo, its model a local scripted one.

    run.py CLIENT TASK DEMO_BINARY TOOLS_DIR

CLIENT is a module of ``clients/`` (claude_code, codex, gemini_cli, copilot_cli, opencode,
continue_cli); TASK is ``order``, ``lock`` or ``batch`` (two orders at once, several calls per
turn). The client is installed from its registry at its
pinned version under TOOLS_DIR on first use and reused after; a client that cannot be installed
fails with a message saying why. The client program is started as a person would start it,
with the demo as its MCP server at default settings (``--headless --stdio``) and its model
provider pointed at the scripted model (``model/``), which decides each step only from what
the client sent it and answers at once.

Prints ``PASS CLIENT TASK: N model turns, R reads, E errors (S stale_state), ...`` and per turn
the bytes the model saw and how many of them were the bridge's (``model/ours.py``), or ``FAIL``
with the client's output and the turns; exits 0 only on PASS.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from model import brain  # noqa: E402
from model.server import ModelServer  # noqa: E402

# A client that has not finished by then is stuck (an instant model makes a task take seconds).
CLIENT_TIMEOUT_S = 240


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    client_name, task, demo, tools_dir = sys.argv[1:]
    client = importlib.import_module(f"clients.{client_name}")
    tools = Path(tools_dir).resolve()
    tools.mkdir(parents=True, exist_ok=True)
    try:
        installed = client.install(tools)
    except Exception as e:  # noqa: BLE001 - the reason goes to the test's failure message
        print(f"FAIL {client_name} {task}: cannot install {client.PACKAGE}: {e}")
        return 1
    prompt = {"order": brain.ORDER_PROMPT, "lock": brain.LOCK_PROMPT, "batch": brain.BATCH_PROMPT}[task]
    work = tools / "runs" / f"{client_name}-{task}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # Default settings; REAL_CLIENTS_DEMO_ARGS adds arguments when developing (never in the tests).
    demo_cmd = [str(Path(demo).resolve()), "--headless", "--stdio", *os.environ.get("REAL_CLIENTS_DEMO_ARGS", "").split()]
    with ModelServer(client.adapter()) as model:
        argv, env = client.command(installed, work, model.url, demo_cmd, prompt)
        full_env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "COPILOT_", "CODEX_"))}
        full_env.update({"RUST_LOG": "warn", "NO_COLOR": "1", "CI": "1"})
        full_env.update(env)
        started = time.monotonic()
        try:
            out = subprocess.run(
                argv, cwd=work, env=full_env, stdin=subprocess.DEVNULL, capture_output=True, timeout=CLIENT_TIMEOUT_S
            )
            code, stdout, stderr = out.returncode, out.stdout, out.stderr
        except subprocess.TimeoutExpired as e:
            code, stdout, stderr = "timeout", e.stdout or b"", e.stderr or b""
        took = time.monotonic() - started
        rec = model.record
    turns = rec.turns
    done = rec.final is not None and rec.final.startswith("say DONE")
    status = "PASS" if done and code == 0 and not rec.errors else "FAIL"
    reads = sum(t.decision.count(brain.READ + " ") for t in turns)
    last = turns[-1] if turns else None
    errors, stale = (last.errors, last.stale) if last else (0, 0)
    ours = [t.ours for t in turns if t.ours is not None]
    print(
        f"{status} {client_name} {task}: {len(turns)} model turns, {reads} reads, {errors} errors ({stale} stale_state), "
        f"{sum(t.nbytes for t in turns)} bytes seen by the model, "
        f"ours per request {sum(ours) // max(1, len(ours))} on average and {max(ours, default=0)} at most, "
        f"exit {code}, {took:.1f} s"
    )
    for i, t in enumerate(turns, 1):
        print(f"  turn {i}: {t.nbytes} bytes, ours {t.ours} -> {t.decision}")
    if status == "FAIL":
        print(f"side requests: {rec.side}")
        for e in rec.errors:
            print(f"adapter error:\n{e}")
        print("--- client stdout (tail)\n" + stdout.decode(errors="replace")[-6000:])
        print("--- client stderr (tail)\n" + stderr.decode(errors="replace")[-6000:])
        print(f"(the run's files are kept in {work})")
    else:
        shutil.rmtree(work, ignore_errors=True)  # some clients unpack 200+ MB into their home
    return 0 if status == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
