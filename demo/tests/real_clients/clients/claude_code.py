"""Claude Code, run headless (``claude -p``) against the demo, its model the scripted one.

The npm package ``@anthropic-ai/claude-code`` carries only a launcher; the program is the native
binary of the platform package ``@anthropic-ai/claude-code-linux-x64`` (an optional dependency
npm installs beside it). We run that binary directly, so the package's postinstall (which only
copies it over the launcher) is not needed and npm runs no scripts.

Settings, each because a user needs it to connect or because this machine has no internet:

- ``ANTHROPIC_BASE_URL`` / ``ANTHROPIC_API_KEY``: the provider (the scripted model); any key.
- ``--mcp-config FILE --strict-mcp-config``: the demo as MCP server ``order-demo``, and no other
  server from any user or project setting.
- ``--dangerously-skip-permissions`` (with ``IS_SANDBOX=1``, which it requires when run as root):
  ``-p`` has no one to approve tool calls; this is the approval mode docs/clients.md documents.
- ``HOME`` / ``CLAUDE_CONFIG_DIR`` in the run's work dir: never the real user's settings.
- ``DISABLE_TELEMETRY``, ``DISABLE_AUTOUPDATER``, ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC``:
  no traffic but the model's (nothing else is reachable here, and nothing may wait on it).

Tool search stays at its default: every MCP tool is deferred behind ``ToolSearch``.
"""

from __future__ import annotations

import json
from pathlib import Path

from clients import _npm
from model import anthropic

VERSION = "2.1.328"
PACKAGE = f"@anthropic-ai/claude-code@{VERSION}"
NATIVE = f"@anthropic-ai/claude-code-linux-x64@{VERSION}"
BINARY = Path("node_modules/@anthropic-ai/claude-code-linux-x64/claude")


def adapter():
    return anthropic.adapter()


def install(tools_dir: Path) -> Path:
    """The pinned package and its native binary; npm runs no scripts (see above)."""
    return _npm.install(
        tools_dir, "claude_code", [PACKAGE, NATIVE], str(BINARY), version_flag="--version", ignore_scripts=True
    )


def command(install_dir: Path, work_dir: Path, model_url: str, demo_cmd: list[str], prompt: str):
    home = work_dir / "home"
    home.mkdir(parents=True, exist_ok=True)
    config = work_dir / "mcp.json"
    server = {"type": "stdio", "command": demo_cmd[0], "args": demo_cmd[1:]}
    config.write_text(json.dumps({"mcpServers": {"order-demo": server}}, indent=2))
    argv = [
        str(install_dir / BINARY), "-p", prompt,
        "--mcp-config", str(config), "--strict-mcp-config",
        "--output-format", "stream-json", "--verbose",
        "--dangerously-skip-permissions",
    ]
    env = {
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "ANTHROPIC_BASE_URL": model_url,
        "ANTHROPIC_API_KEY": "any",
        "IS_SANDBOX": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    return argv, env
