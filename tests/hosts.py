"""The real hosts beside pi (Claude Code, Codex CLI, OpenCode, Gemini CLI), as scripts/setup
installs them: one npm prefix, `.cache/hosts`, run with the cached Node first on PATH.

Every run of a host's binary in the tests is offline: `unshare -n` (a network namespace with
only a loopback that is down; `unshare -rn` as a user without the right), with a HOME and
XDG dirs of the test's own. In CI (`CI` set) a host that is not installed, or a machine where
neither unshare works, fails the tests that need it; elsewhere they are skipped with the fix.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / ".cache"
PREFIX = CACHE / "hosts"
TIMEOUT = 120


class RealHost(NamedTuple):
    """One real host: its judge's name, npm package and version, and its config dir variable."""

    name: str  # claude | codex | opencode | gemini (installer.hosts.judges.HOSTS)
    package: str
    version: str
    dir_var: str | None  # the variable that moves its config dir (OpenCode: XDG_CONFIG_HOME)

    @property
    def id(self) -> str:
        return f"{self.name}{self.version}"

    @property
    def bin(self) -> Path:
        return PREFIX / "node_modules" / ".bin" / self.name

    @property
    def installed(self) -> bool:
        pkg = PREFIX / "node_modules" / self.package / "package.json"
        return self.bin.exists() and f'"version": "{self.version}"' in _text(pkg)

    def require(self) -> RealHost:
        """This host, or the test fails (in CI) or is skipped (elsewhere) with the fix."""
        if not self.installed:
            _fail_or_skip(
                f"{self.package} {self.version} is not in .cache/hosts: run scripts/setup"
            )
        offline_prefix()
        return self

    def offline_bin(self, folder: Path) -> str:
        """A wrapper in `folder` that runs this host's binary under unshare: give it to a
        judge as the binary, so the judge's own runs are offline too."""
        wrapper = folder / f"{self.name}-offline"
        if not wrapper.exists():
            folder.mkdir(parents=True, exist_ok=True)
            argv = " ".join([*offline_prefix(), str(self.bin)])
            wrapper.write_text(f'#!/bin/sh\nexec {argv} "$@"\n')
            wrapper.chmod(0o755)
        return str(wrapper)

    def env(self, home: Path, **extra: str) -> dict[str, str]:
        """A process environment of `home` (its XDG dirs too), the cached Node first on PATH."""
        return environment(home, **extra)

    def run(
        self,
        args: list[str],
        home: Path,
        cwd: Path,
        extra: Mapping[str, str] | None = None,
        stdin: str | None = None,
        timeout: float = TIMEOUT,
    ) -> subprocess.CompletedProcess[str]:
        """Run this host offline (`unshare -n`) with `home` as HOME and the XDG dirs under it."""
        return subprocess.run(
            [*offline_prefix(), str(self.bin), *args],
            env=self.env(home, **(extra or {})),
            cwd=cwd,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


HOSTS = (
    RealHost("claude", "@anthropic-ai/claude-code", "2.1.332", "CLAUDE_CONFIG_DIR"),
    RealHost("codex", "@openai/codex", "0.171.0", "CODEX_HOME"),
    RealHost("opencode", "opencode-ai", "1.18.33", "XDG_CONFIG_HOME"),
    RealHost("gemini", "@google/gemini-cli", "0.61.0", "GEMINI_CLI_HOME"),
)
BY_NAME = {host.name: host for host in HOSTS}


def environment(home: Path, **extra: str) -> dict[str, str]:
    """HOME and the XDG dirs in `home`, PATH with the cached Node first, and `extra`."""
    keep = ("PATH", "LANG", "LC_ALL", "NODE_COMPILE_CACHE")
    env = {k: v for k, v in os.environ.items() if k in keep}
    node = node_dir()
    if node is not None:
        env["PATH"] = os.pathsep.join([str(node), env.get("PATH", "")])
    env["HOME"] = str(home)
    for var, rel in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ):
        env[var] = str(home / rel)
    env.update(extra)
    return env


def node_dir() -> Path | None:
    """The newest Node scripts/setup put in .cache (Claude Code's engines ask for >= 22)."""
    found = sorted(CACHE.glob("node-*/node_modules/node-*/bin/node"))
    return found[-1].parent if found else None


@functools.cache
def _offline() -> tuple[str, ...] | str:
    import shutil

    unshare = shutil.which("unshare")
    if unshare is None:
        return "no unshare on PATH (util-linux)"
    tried = []
    for prefix in ((unshare, "-n"), (unshare, "-rn")):
        try:
            done = subprocess.run(
                [*prefix, "true"], capture_output=True, text=True, timeout=30, check=False
            )
        except OSError as exc:
            tried.append(f"{' '.join(prefix)}: {exc.strerror or exc}")
            continue
        if done.returncode == 0:
            return prefix
        tried.append(f"{' '.join(prefix)}: {done.stderr.strip() or done.returncode}")
    return "; ".join(tried)


def offline_prefix() -> tuple[str, ...]:
    """`unshare -n` (or `-rn`), or the test fails in CI (skips elsewhere) saying why not."""
    found = _offline()
    if isinstance(found, str):
        _fail_or_skip(
            f"the hosts run offline under unshare, which is not permitted here ({found}): "
            "run the tests as root, or enable unprivileged user namespaces "
            "(sysctl kernel.unprivileged_userns_clone=1)"
        )
    assert isinstance(found, tuple)
    return found


def _fail_or_skip(message: str) -> None:
    import pytest

    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""
