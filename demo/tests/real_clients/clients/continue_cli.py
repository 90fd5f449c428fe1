"""Continue CLI (``cn``), its model a local OpenAI-compatible server.

A local ``config.yaml`` (``--config``) names the model (``provider: openai`` with ``apiBase``)
and the MCP server (``mcpServers``). ``cn -p PROMPT`` is its headless mode, where MCP tools are
allowed by default (its default policy: ask in the terminal UI, allow headless), so no approval
flag is needed. ``CONTINUE_GLOBAL_DIR`` and HOME point into the run's work dir. Telemetry is
off (``CONTINUE_METRICS_ENABLED=0``); headless mode never auto-updates.
"""

from __future__ import annotations

import json
from pathlib import Path

from clients import _npm
from model import openai_chat

PACKAGE = "@continuedev/cli@1.5.47"


def adapter():
    return openai_chat.adapter


def install(tools_dir: Path) -> Path:
    return _npm.install(tools_dir, "continue_cli", [PACKAGE], "node_modules/.bin/cn")


def command(install_dir: Path, work_dir: Path, model_url: str, demo_cmd: list[str], prompt: str):
    home = work_dir / "home"
    home.mkdir()
    config = {
        "name": "order-demo test",
        "version": "0.0.1",
        "schema": "v1",
        "models": [
            {
                "name": "Scripted model",
                "provider": "openai",
                "model": openai_chat.MODEL,
                "apiBase": model_url + "/v1",
                "apiKey": "none",
                "roles": ["chat"],
            }
        ],
        "mcpServers": [{"name": "order-demo", "command": demo_cmd[0], "args": demo_cmd[1:]}],
    }
    # JSON is YAML: no YAML writer needed.
    (work_dir / "config.yaml").write_text(json.dumps(config, indent=2))
    argv = [str(install_dir / "node_modules" / ".bin" / "cn"), "-p", prompt, "--config", str(work_dir / "config.yaml")]
    env = {
        "HOME": str(home),
        "CONTINUE_GLOBAL_DIR": str(home / ".continue"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "CONTINUE_METRICS_ENABLED": "0",
    }
    return argv, env
