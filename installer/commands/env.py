"""`ext env`: the line that points a shell's pi at the agent dir."""

from __future__ import annotations

import shlex
from pathlib import Path

from installer.engine.result import DataResult
from installer.ground.context import Context
from installer.ground.errors import UsageError
from installer.ground.records import NamedTuple

SHELLS = ("sh", "bash", "zsh", "fish")


class EnvLine(NamedTuple):
    """`ext env`'s options, as installer.cli.grammar names them."""

    shell: str = "sh"


def env(ctx: Context, options: EnvLine) -> DataResult:
    """The line for the shell, as data and as the one line `eval` reads (printed as is)."""
    line = env_line(ctx.agent_dir, options.shell)
    data = {"agent_dir": str(ctx.agent_dir), "shell": options.shell, "line": line}
    return DataResult(data, (line,), verbatim=True)


def env_line(agent_dir: Path, shell: str) -> str:
    """`export PI_CODING_AGENT_DIR=…` for POSIX shells, `set -gx …` for fish."""
    if shell not in SHELLS:
        import difflib

        close = difflib.get_close_matches(shell, SHELLS, n=1, cutoff=0.5)
        fix = f"use one of: {', '.join(SHELLS)}"
        raise UsageError(
            f"unknown shell {shell!r}", f"did you mean {close[0]!r}? {fix}" if close else fix
        )
    quoted = shlex.quote(str(agent_dir))
    if shell == "fish":
        return f"set -gx PI_CODING_AGENT_DIR {quoted}"
    return f"export PI_CODING_AGENT_DIR={quoted}"
