"""`shutil.which`, written out for POSIX: finding pi on PATH is one of a no-op install's steps.

Importing shutil costs ~2 ms here (it loads zlib, bz2, lzma and fnmatch for its archive
functions), as much as a no-op install's whole scan of a small set, and the everyday commands
need nothing else of it. On POSIX the lookup below is shutil's own (as of 3.11: a name with a
folder is checked as given; PATH entries once each, in order; an executable that is not a
folder); elsewhere (PATHEXT, the current folder first) shutil answers.
tests/fs/test_which.py holds the two to the same answers.
"""

from __future__ import annotations

import os


def which(cmd: str, path: str | None = None) -> str | None:
    """The executable `cmd` names, found as `shutil.which(cmd, path=path)` finds it."""
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
    for folder in path.split(os.pathsep):
        if folder not in seen:
            seen.add(folder)
            name = os.path.join(folder, cmd)
            if _runnable(name):
                return name
    return None


def _runnable(name: str) -> bool:
    return os.path.exists(name) and os.access(name, os.X_OK) and not os.path.isdir(name)
