"""opencode, its model a local OpenAI-compatible server.

The documented way to use a local model is a custom provider in the project's ``opencode.json``
with the ``@ai-sdk/openai-compatible`` package and ``options.baseURL``; the MCP server is a
``local`` entry under ``mcp`` in the same file. ``opencode run PROMPT`` is its non-interactive
mode. ``small_model`` names the same model, so the session title is asked of it too, not of
opencode's default provider (unreachable). HOME and the XDG dirs point into the run's work dir,
so its config, data and the plugin it installs from npm at start stay there. Switched off, as a
user can: the update check, the models.dev catalogue fetch (else it waits on an unreachable
host), LSP downloads and sharing.
"""

from __future__ import annotations

import json
from pathlib import Path

from clients import _npm
from model import openai_chat

PACKAGE = "opencode-ai@1.18.33"
PROVIDER = "scripted"


def adapter():
    return openai_chat.adapter


def install(tools_dir: Path) -> Path:
    return _npm.install(tools_dir, "opencode", [PACKAGE], "node_modules/.bin/opencode")


def command(install_dir: Path, work_dir: Path, model_url: str, demo_cmd: list[str], prompt: str):
    home = work_dir / "home"
    home.mkdir()
    config = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {
            PROVIDER: {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Scripted model",
                "options": {"baseURL": model_url + "/v1", "apiKey": "none"},
                "models": {openai_chat.MODEL: {"name": "Scripted model"}},
            }
        },
        "model": f"{PROVIDER}/{openai_chat.MODEL}",
        "small_model": f"{PROVIDER}/{openai_chat.MODEL}",
        "mcp": {"order-demo": {"type": "local", "command": demo_cmd, "enabled": True}},
        "autoupdate": False,
        "share": "disabled",
    }
    (work_dir / "opencode.json").write_text(json.dumps(config, indent=2))
    argv = [str(install_dir / "node_modules" / ".bin" / "opencode"), "run", prompt]
    env = {
        # opencode takes its project directory from $PWD, not from the process's cwd.
        "PWD": str(work_dir),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_MODELS_FETCH": "1",
        "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
        "OPENCODE_DISABLE_SHARE": "1",
    }
    return argv, env
