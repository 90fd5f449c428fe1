"""Gemini CLI (npm ``@google/gemini-cli``) run headless with ``gemini -p``.

Everything it reads or writes lives in the run's work dir: ``GEMINI_CLI_HOME`` (and ``HOME``)
point at ``work/home``, whose ``.gemini/settings.json`` registers the demo as the MCP server
``order-demo`` and ``.gemini/trustedFolders.json`` trusts the work dir, the documented way to
trust a folder without the interactive prompt. Trust matters: in an untrusted folder the CLI
refuses to run headless, and it gives MCP servers' instructions to its model only in a trusted
one. The settings a user must have to reach a Gemini API endpoint at all are the API-key auth
type (else exit 41), ``GEMINI_API_KEY`` and ``GOOGLE_GEMINI_BASE_URL``; ``--approval-mode
yolo`` is the approval mode docs/clients.md documents for unattended runs. Usage statistics,
telemetry and update checks are off so that nothing leaves 127.0.0.1. The rest is default.
"""

from __future__ import annotations

import json
from pathlib import Path

from clients import _npm
from model import gemini

PACKAGE = "@google/gemini-cli@0.61.0"


def adapter():
    return gemini.adapter()


def install(tools_dir: Path) -> Path:
    return _npm.install(tools_dir, "gemini_cli", [PACKAGE], "node_modules/.bin/gemini")


def _bin(install_dir: Path) -> Path:
    return install_dir / "node_modules" / ".bin" / "gemini"


def command(install_dir: Path, work_dir: Path, model_url: str, demo_cmd: list[str], prompt: str):
    home = work_dir / "home"
    config = home / ".gemini"
    config.mkdir(parents=True, exist_ok=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "mcpServers": {"order-demo": {"command": demo_cmd[0], "args": demo_cmd[1:]}},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
    }
    (config / "settings.json").write_text(json.dumps(settings, indent=2))
    (config / "trustedFolders.json").write_text(json.dumps({str(work_dir.resolve()): "TRUST_FOLDER"}, indent=2))
    env = {
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(home),
        "GEMINI_API_KEY": "any",
        "GOOGLE_GEMINI_BASE_URL": model_url,
    }
    return [str(_bin(install_dir)), "-p", prompt, "--approval-mode", "yolo"], env
