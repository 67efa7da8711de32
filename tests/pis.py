"""The real pis the suite runs, one per line of `installer.host.lines.LINES`, as scripts/setup
installs them: `.cache/pi-<version>`, with the Node it needs (`.cache/node-<version>`) first
on PATH when the system's Node is too old for it.

`--pi 1.6.0` (or `EXTSET_PI_VERSIONS=1.6.0`) runs the e2e and conformance tests against one
pi only; by default they run against each. In CI (`CI` set) a pi that is not installed
fails the tests that need it; elsewhere they are skipped with the command that installs it.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path
from typing import NamedTuple

from installer.host.lines import LINES, TODAY, PiLine

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / ".cache"


class RealPi(NamedTuple):
    """One real pi: its line, its bin, and the PATH folders it runs with."""

    line: PiLine
    bin: Path  # .cache/pi-<version>/node_modules/.bin/pi
    node_dir: Path | None  # a Node new enough for it, put first on PATH; None: the system's

    @property
    def version(self) -> str:
        return self.line.tested

    @property
    def id(self) -> str:
        """How a test's name says which pi it ran on: `pi1.6.0`."""
        return f"pi{self.line.tested}"

    @property
    def installed(self) -> bool:
        return self.bin.exists()

    @property
    def package_dir(self) -> Path:
        return self.bin.parents[1] / self.line.package

    def path(self, rest: str | None = None) -> str:
        """PATH with this pi (and its Node) in front of `rest` (this process's PATH)."""
        rest = os.environ.get("PATH", "") if rest is None else rest
        front = [str(self.bin.parent)] + ([str(self.node_dir)] if self.node_dir else [])
        return os.pathsep.join([*front, rest])

    def require(self) -> RealPi:
        """This pi, or the test fails (in CI) or is skipped (elsewhere) with the fix."""
        import pytest

        if not self.installed:
            message = f"pi {self.version} is not installed in .cache: run scripts/setup"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        return self


def real_pi(line: PiLine) -> RealPi:
    """The pi scripts/setup installs for `line`."""
    bin_ = CACHE / f"pi-{line.tested}" / "node_modules" / ".bin" / "pi"
    return RealPi(line, bin_, _node_for(line))


def selected() -> list[RealPi]:
    """The pis the e2e and conformance tests run against (`--pi`, EXTSET_PI_VERSIONS)."""
    wanted = os.environ.get("EXTSET_PI_VERSIONS", "")
    names = [w.strip() for w in wanted.split(",") if w.strip()]
    lines = [line for line in LINES if not names or line.tested in names]
    return [real_pi(line) for line in reversed(lines)]  # today's first


def today() -> RealPi:
    """Today's pi, the one on PATH for tests that do not ask for a particular pi."""
    return real_pi(TODAY)


def _node_for(line: PiLine) -> Path | None:
    """The cached Node's folder when the system's Node does not meet `line.node`."""
    need = _version(line.node)
    have = _system_node()
    if need is None or (have is not None and have >= need):
        return None
    found = sorted(CACHE.glob("node-*/node_modules/node-*/bin/node"))
    return found[-1].parent if found else None


@functools.cache
def _system_node() -> tuple[int, int, int] | None:
    try:
        out = subprocess.run(
            ["node", "--version"], capture_output=True, text=True, timeout=30, check=False
        ).stdout
    except OSError:
        return None
    return _version(out)


def _version(text: str) -> tuple[int, int, int] | None:
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", text)
    return (int(match[1]), int(match[2]), int(match[3])) if match else None
