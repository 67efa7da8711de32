"""`ext env`: the line that points a shell's pi (or `--host`'s host) at the agent dir."""

from __future__ import annotations

import shlex
from pathlib import Path

from installer.engine.result import DataResult
from installer.ground.context import Context
from installer.ground.errors import UsageError
from installer.ground.records import NamedTuple

SHELLS = ("sh", "bash", "zsh", "fish")
# Shells of another syntax: no "did you mean" (tcsh is not a typo of sh).
OTHERS = frozenset({"csh", "tcsh", "nu", "xonsh", "elvish", "pwsh", "powershell", "cmd"})


class EnvLine(NamedTuple):
    """`ext env`'s options, as installer.cli.grammar names them."""

    shell: str = "sh"


def env(ctx: Context, options: EnvLine) -> DataResult:
    """The line for the shell, as data and as the one line `eval` reads (printed as is)."""
    from installer.host.set_command import refuse_strange_set

    refuse_strange_set(ctx, "env")
    if not ctx.on.is_pi:
        return host_env(ctx, options)
    line = env_line(ctx.agent_dir, options.shell)
    data = {"agent_dir": str(ctx.agent_dir), "shell": options.shell, "line": line}
    return DataResult(data, (line,), verbatim=True)


def host_env(ctx: Context, options: EnvLine) -> DataResult:
    """Another host's line: its own variable, naming its dir (or the home its dir is in).

    What the variable also moves (OpenCode's XDG_CONFIG_HOME is every XDG app's) is a
    warning on stderr: `eval "$(ext env)"` reads stdout only, so the note reaches the person
    who typed it, where a `#` line would vanish into the eval unseen."""
    from installer.ground.shellword import shell_word
    from installer.hosts.dirs import default_dir
    from installer.hosts.pointer import moves_others, pointer

    host = ctx.on
    point = pointer(
        host, ctx.agent_dir, default_dir(ctx.env, host) if host.unset_at_default else None
    )
    if point.value:
        line = env_line(Path(point.value), options.shell, point.name)
    else:  # its own default dir: no variable, as the host is when nothing moves it
        line = unset_line(options.shell, point.name)
    note = moves_others(host, point, ctx.env.environ)
    data = {
        "host": host.name,
        "agent_dir": str(ctx.agent_dir),
        "shell": options.shell,
        "variable": point.name,
        "line": line,
    }
    # The dir named too: a command with --host gets none of this run's flags (helper-42).
    at = f" --agent-dir {shell_word(ctx.agent_dir)}" if point.value else ""
    launch = f"`ext --host {host.name}{at} launch` sets it for {host.title} alone"
    warnings = (f"{note}; {launch}",) if note else ()
    return DataResult(data, (line,), warnings, verbatim=True)


def unset_line(shell: str, var: str) -> str:
    """`unset VAR` (fish: `set -e VAR`): the host at its own default dir."""
    env_line(Path("."), shell, var)  # the shell's name checked as for an export
    return f"set -e {var}" if shell == "fish" else f"unset {var}"


def env_line(agent_dir: Path, shell: str, var: str = "PI_CODING_AGENT_DIR") -> str:
    """`export PI_CODING_AGENT_DIR=…` for POSIX shells, `set -gx …` for fish."""
    if shell not in SHELLS:
        import difflib

        fix = f"use one of: {', '.join(SHELLS)}"
        if shell in OTHERS:
            raise UsageError(
                f"{shell} is not a shell ext writes lines for",
                f"{fix}: `ext env --shell sh` prints the dir in an `export` line, which"
                f" {shell} writes as `setenv {var} <dir>`"
                if shell in ("csh", "tcsh")
                else f"{fix}, and write the {shell} line for what it prints by hand",
            )
        close = difflib.get_close_matches(shell, SHELLS, n=1, cutoff=0.5)
        raise UsageError(
            f"unknown shell {shell!r}", f"did you mean {close[0]!r}? {fix}" if close else fix
        )
    quoted = shlex.quote(str(agent_dir))
    if shell == "fish":
        return f"set -gx {var} {quoted}"
    return f"export {var}={quoted}"
