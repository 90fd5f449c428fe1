"""Codex CLI (npm ``@openai/codex``), run as ``codex exec`` with a custom Responses provider.

Everything Codex reads lives in a private ``CODEX_HOME`` inside the run's work dir. Its
``config.toml`` holds what a user must write to use Codex with this demo and a local model:

- a ``model_provider`` whose ``base_url`` is the scripted model, ``wire_api = "responses"`` (the
  only wire API 0.169 accepts for a custom provider);
- the demo as the MCP server ``order-demo``;
- one per-tool approval: ``codex exec`` runs with approval policy ``never``, where Codex refuses,
  before the server sees it, every call of a tool that is neither ``readOnlyHint: true`` nor
  ``destructiveHint: false`` with ``openWorldHint: false``. The bridge's one such tool the tasks
  need is ``app__call_destructive``; approving it alone is the narrowest setting that lets a
  person's destructive steps (authorize) run unattended.

Switched off because they would reach the network: analytics, the metrics exporter, and the
plugin marketplace sync (``features.plugins``, which fetches from GitHub and chatgpt.com).
"""

from __future__ import annotations

import json
from pathlib import Path

from clients import _npm
from model import openai_responses

VERSION = "0.169.0"
PACKAGE = f"@openai/codex@{VERSION}"
MODEL = "scripted"

# The tools a user approves for this server, besides those Codex runs without asking.
APPROVED_TOOLS = ["app__call_destructive"]


def adapter():
    """Codex speaks the Responses API to a custom provider."""
    return openai_responses.adapter()


def install(tools_dir: Path) -> Path:
    """The pinned package; its launcher finds the native binary in the platform package, so a
    missing one shows in the version check."""
    return _npm.install(tools_dir, "codex", [PACKAGE], "node_modules/.bin/codex", version_flag="--version")


def _toml(value) -> str:
    """A TOML string or array of strings (JSON's escapes are valid TOML basic strings)."""
    return json.dumps(value)


def config(model_url: str, demo_cmd: list[str]) -> str:
    """The ``config.toml`` of the private CODEX_HOME (see the module's docstring for why)."""
    lines = [
        f"model = {_toml(MODEL)}",
        'model_provider = "scripted"',
        "",
        "[model_providers.scripted]",
        'name = "Scripted model"',
        f"base_url = {_toml(model_url + '/v1')}",
        'wire_api = "responses"',
        "",
        "[analytics]",
        "enabled = false",
        "",
        "[otel]",
        'metrics_exporter = "none"',
        "",
        "[features]",
        "plugins = false",
        "",
        "[mcp_servers.order-demo]",
        f"command = {_toml(demo_cmd[0])}",
        f"args = {_toml(demo_cmd[1:])}",
    ]
    for tool in APPROVED_TOOLS:
        lines += ["", f"[mcp_servers.order-demo.tools.{tool}]", 'approval_mode = "approve"']
    return "\n".join(lines) + "\n"


def command(install_dir: Path, work_dir: Path, model_url: str, demo_cmd: list[str], prompt: str):
    """``codex exec`` as a person runs it headless: the npm launcher, JSON events on stdout."""
    home = work_dir / "codex-home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(config(model_url, demo_cmd))
    argv = [str(install_dir / "node_modules" / ".bin" / "codex"), "exec", "--skip-git-repo-check", "--json", prompt]
    env = {"CODEX_HOME": str(home), "HOME": str(work_dir)}
    return argv, env
