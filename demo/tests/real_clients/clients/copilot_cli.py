"""GitHub Copilot CLI, its model a local OpenAI-compatible server (bring your own key).

``COPILOT_OFFLINE=true`` with ``COPILOT_PROVIDER_BASE_URL`` is Copilot's documented way to run
on a local model: no GitHub sign-in, and no telemetry, update check or GitHub MCP server. It
speaks Chat Completions by default (``COPILOT_PROVIDER_WIRE_API=completions``). The MCP server is
registered in the user config (``$COPILOT_HOME/mcp-config.json``), here a private one inside the
run's work dir. ``--allow-all-tools`` is required in prompt mode (else every tool is refused).
``--allow-all-mcp-server-instructions`` makes Copilot put the server's instructions into its
system prompt (it drops them for servers not on its allowlist); docs/clients.md recommends it.
"""

from __future__ import annotations

import json
from pathlib import Path

from clients import _npm
from model import openai_chat

PACKAGE = "@github/copilot@1.0.102"
MODEL = openai_chat.MODEL


def adapter():
    return openai_chat.adapter


def install(tools_dir: Path) -> Path:
    return _npm.install(tools_dir, "copilot_cli", [PACKAGE], "node_modules/.bin/copilot")


def command(install_dir: Path, work_dir: Path, model_url: str, demo_cmd: list[str], prompt: str):
    home = work_dir / "home"
    copilot_home = home / ".copilot"
    copilot_home.mkdir(parents=True)
    servers = {"order-demo": {"type": "local", "command": demo_cmd[0], "args": demo_cmd[1:], "tools": ["*"]}}
    (copilot_home / "mcp-config.json").write_text(json.dumps({"mcpServers": servers}, indent=2))
    argv = [
        str(install_dir / "node_modules" / ".bin" / "copilot"),
        "-p", prompt,
        "--allow-all-tools",
        "--allow-all-mcp-server-instructions",
        "--no-auto-update",
        "--log-dir", str(work_dir / "logs"),
    ]
    env = {
        "HOME": str(home),
        "COPILOT_HOME": str(copilot_home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_TYPE": "openai",
        "COPILOT_PROVIDER_BASE_URL": model_url + "/v1",
        "COPILOT_MODEL": MODEL,
    }
    return argv, env
