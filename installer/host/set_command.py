"""Whether ext may run the host command a set names: not before the set is installed here.

Inspecting a set (`install --dry-run`, `list`, `doctor`) must not run its code. The one
place ext would is the host binary: `<bin> --version` when no package.json says the
version, an offline start with `doctor --deep`. So a binary the set names is run only once
the set is installed in this agent dir (installing is trusting it), or with `--trust-set`.
"""

from __future__ import annotations

import os
from pathlib import Path

from installer.ground.home import expand_home


def untrusted_root(
    set_root: Path | None,
    agent_dir: Path | None,
    trusted: bool = False,
    source: str | None = None,
) -> Path | None:
    """The set root whose paths must not run here; None once the set is installed or trusted.

    Installed means ext's state record lists this very root: a record of another root with
    the same name (a moved set) does not count, as a name is whatever a set says it is. The
    bundled set (`source` "bundled") is ext's own: trusting ext is trusting it (a checkout of
    ext holds the pi its tests run, in `.cache/`).
    """
    if trusted or set_root is None or source == "bundled":
        return None
    if agent_dir is not None:
        from installer.ground.state import load_state

        if load_state(agent_dir).for_root(set_root) is not None:
            return None
    return set_root


def names_set_path(command: str, found: str, set_root: Path) -> bool:
    """True when running `found` (what PATH made of `command`) would run a path the set named.

    A command with a `/` is a path the set chose, wherever it points: a relative one is
    looked up from the cwd, which is the set when ext found it by walking up. A bare name
    is the user's own program, unless PATH found it through a relative entry (the cwd's
    again) or inside the set.
    """
    if "/" in os.fspath(expand_home(command)) or not os.path.isabs(found):
        return True
    root = os.path.realpath(set_root)
    return any(
        os.path.commonpath([root, where]) == root
        for where in (os.path.abspath(found), os.path.realpath(found))
    )


def withheld_note(command: str) -> str:
    """What is said instead of running the set's own host command, and how to run it."""
    return (
        f"not run: {command} is the set's own and the set is not installed here "
        "(--trust-set runs it; so does every command once the set is installed)"
    )
