"""Installs a client program from the npm registry, once per version, under the tools dir.

Every client module calls ``install``: ``npm install`` of the pinned packages into
``tools_dir/NAME-VERSION``, then a check that the program is there (and, where asked, that it
runs and reports its version), and only then a marker file, so a broken install is retried and
a good one is reused. A failure raises an error that says why; the runner turns it into the
test's failure message.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

NPM_TIMEOUT_S = 600


def install(
    tools_dir: Path,
    name: str,
    packages: list[str],
    program: str,
    *,
    version_flag: str | None = None,
    ignore_scripts: bool = False,
) -> Path:
    """Returns the install folder. ``program`` is the path of the executable inside it;
    ``version_flag`` (such as ``--version``) runs it once and expects the pinned version."""
    version = packages[0].rsplit("@", 1)[1]
    target = tools_dir / f"{name}-{version}"
    marker = target / ".installed"
    if marker.exists() and marker.read_text().strip() == " ".join(packages) and (target / program).exists():
        return target
    if shutil.which("npm") is None:
        raise RuntimeError("npm is not on PATH: install Node.js 20 or later with npm")
    target.mkdir(parents=True, exist_ok=True)
    (target / "package.json").write_text('{"private": true}\n')
    flags = ["--no-audit", "--no-fund", "--loglevel=error", *(["--ignore-scripts"] if ignore_scripts else [])]
    try:
        out = subprocess.run(
            ["npm", "install", *flags, *packages], cwd=target, capture_output=True, text=True, timeout=NPM_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"npm install {' '.join(packages)} took over {NPM_TIMEOUT_S} s (is the npm registry reachable?)") from None
    if out.returncode != 0:
        raise RuntimeError(f"npm install {' '.join(packages)} failed ({out.returncode}): {out.stderr.strip()[-2000:]}")
    exe = target / program
    if not exe.exists():
        raise RuntimeError(f"npm install left no {exe}")
    if version_flag:
        check = subprocess.run([str(exe), version_flag], capture_output=True, text=True, timeout=60)
        if version not in check.stdout:
            raise RuntimeError(f"{exe} {version_flag} says {(check.stdout + check.stderr).strip()[-800:]!r}, not {version}")
    marker.write_text(" ".join(packages) + "\n")
    return target
