"""The variable that points a host at a config dir, for `ext env` and `ext launch`: the dir
itself (CLAUDE_CONFIG_DIR, CODEX_HOME), or the home it sits in (GEMINI_CLI_HOME names the
folder `.gemini` is in, XDG_CONFIG_HOME the one `opencode` is in)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from installer.ground.errors import UsageError
from installer.ground.records import NamedTuple
from installer.ground.shellword import shell_word
from installer.hosts.profile import Host


class Pointer(NamedTuple):
    """`name=value` makes the host read its config dir from `dir`; an empty value: the
    variable unset, since the dir is the host's own default."""

    name: str
    value: str


def pointer(host: Host, config_dir: Path, default: Path | None = None) -> Pointer:
    """The variable and value that make `host` read `config_dir`; a dir the variable cannot
    name (a `.gemini` named otherwise) is a usage error with the fix.

    At the host's `default` dir the variable is unset, not set to it: Claude Code keeps
    `~/.claude.json` beside `~/.claude` and reads it from inside CLAUDE_CONFIG_DIR once that
    is set, so setting it to the default dir would hide the user's settings and trust."""
    var = host.dir_var
    if not var:
        raise UsageError(f"{host.title} reads no variable for its dir", "start it from its dir")
    config_dir = Path(os.path.abspath(config_dir))
    if default is not None and os.path.realpath(config_dir) == os.path.realpath(default):
        return Pointer(var, "")
    if not host.var_names_home:
        return Pointer(var, str(config_dir))
    leaf = host.default_dir.rpartition("/")[2]
    if config_dir.name != leaf:
        raise UsageError(
            f"{host.title} reads the folder {leaf} inside {var}, and {config_dir} is named "
            f"{config_dir.name}: no {var} points it there",
            f"name a dir called {leaf}: --agent-dir {shell_word(config_dir.parent / leaf)}",
        )
    return Pointer(var, str(config_dir.parent))


def moves_others(host: Host, point: Pointer, environ: Mapping[str, str]) -> str | None:
    """What setting the variable also moves, when it is not the host's alone and the value
    is not what the shell has already (else None)."""
    if not host.var_shared or not point.value:
        return None
    home = environ.get("HOME") or str(Path.home())
    now = environ.get(point.name) or os.path.join(home, ".config")
    if os.path.realpath(now) == os.path.realpath(point.value):
        return None
    return (
        f"{point.name} is every XDG app's, not {host.title}'s alone: set to {point.value}, it "
        f"moves the config of each of them (git, and any other that reads {point.name})"
    )
