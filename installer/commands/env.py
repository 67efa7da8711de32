"""`ext env`: the line that points a shell's pi at the agent dir."""

from __future__ import annotations

import shlex
from pathlib import Path

from installer.errors import UsageError

SHELLS = ("sh", "bash", "zsh", "fish")


def env_line(agent_dir: Path, shell: str) -> str:
    """`export PI_CODING_AGENT_DIR=…` for POSIX shells, `set -gx …` for fish."""
    if shell not in SHELLS:
        raise UsageError(f"unknown shell {shell!r}", f"use one of: {', '.join(SHELLS)}")
    quoted = shlex.quote(str(agent_dir))
    if shell == "fish":
        return f"set -gx PI_CODING_AGENT_DIR {quoted}"
    return f"export PI_CODING_AGENT_DIR={quoted}"
