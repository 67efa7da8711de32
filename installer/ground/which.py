"""`shutil.which`, written out for POSIX, over PATH's absolute entries only.

Every program ext runs on its own (pi's and the other agents' `--version`, their loaders,
npm, git) is looked up here. A relative PATH entry (an empty one: a leading or trailing `:`;
`.`; `node_modules/.bin`) names a folder of wherever ext runs, most often a repository just
cloned: a read-only `ext --version` ran the `pi` a set shipped (helper-77). So those entries
are passed over, as Go's os/exec does since 1.19, and `children_path` takes them out of the
PATH the programs ext starts see (`#!/usr/bin/env node` looks node up again).

Importing shutil costs ~2 ms here (it loads zlib, bz2, lzma and fnmatch for its archive
functions), as much as a no-op install's whole scan of a small set, and the everyday commands
need nothing else of it. On POSIX the lookup below is shutil's own over the absolute entries
(as of 3.11: a name with a folder is checked as given; PATH entries once each, in order; an
executable that is not a folder); elsewhere (PATHEXT, the current folder first) shutil answers.
tests/fs/test_which.py holds the two to the same answers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def which(cmd: str, path: str | None = None, *, as_a_shell: bool = False) -> str | None:
    """The executable `cmd` names, found as `shutil.which` finds it in PATH's absolute
    entries: a name with a `/` as given, a bare name in those entries (none: not found, as
    an empty PATH finds nothing). `as_a_shell`: in every entry, as a shell and
    `#!/usr/bin/env` find it: what a program handed the user's PATH as it is would run
    (`ext launch`)."""
    if os.name != "posix":
        import shutil

        return shutil.which(cmd, path=path)
    if os.path.dirname(cmd):
        return cmd if _runnable(cmd) else None
    if path is None:
        path = os.environ.get("PATH")
        if path is None:
            try:
                path = os.confstr("CS_PATH")
            except (AttributeError, ValueError):
                path = os.defpath
    if not path:
        return None
    seen: set[str] = set()
    for folder in path.split(os.pathsep):  # no usable entry at all: nothing found
        if folder not in seen and (as_a_shell or os.path.isabs(folder)):
            seen.add(folder)
            name = os.path.join(folder, cmd)
            if _runnable(name):
                return name
    return None


def _runnable(name: str) -> bool:
    return os.path.exists(name) and os.access(name, os.X_OK) and not os.path.isdir(name)


def only_relative(cmd: str, path: str | None = None) -> str:
    """What a "not found on PATH" of the bare `cmd` adds when only a relative PATH entry holds
    it: ` (only ./pi, through a relative entry, which ext never runs)`; "" otherwise."""
    if os.path.dirname(cmd) or which(cmd, path) is not None:
        return ""
    found = which(cmd, path, as_a_shell=True)
    if found is None:
        return ""
    shown = found if os.path.dirname(found) else f"./{found}"
    return f" (only {shown}, through a relative entry, which ext never runs)"


def children_path(path: str) -> str:
    """PATH without its relative entries: the PATH of a program ext starts on its own, so that
    what it looks up (`#!/usr/bin/env node`) is never a file of the folder it runs in. With
    none left, the system's default (`/bin:/usr/bin`): an empty PATH is the current folder to
    execvp (helper-78)."""
    kept = os.pathsep.join(e for e in path.split(os.pathsep) if os.path.isabs(e))
    return kept or os.defpath


def for_children(env: Mapping[str, str]) -> dict[str, str]:
    """`env` with `children_path` of its PATH (none added where it has none)."""
    out = dict(env)
    if "PATH" in out:
        out["PATH"] = children_path(out["PATH"])
    return out
