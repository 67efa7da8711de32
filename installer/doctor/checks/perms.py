"""Who may write a folder tree: extensions run with the user's full rights, so this matters."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

WALK_LIMIT = 5000  # a set with node_modules could hold far more; the first offenders suffice
SHOWN = 3


def walk(root: Path, limit: int = WALK_LIMIT) -> Iterator[Path]:
    """root and what is under it, symlinks not followed, at most `limit` paths."""
    from installer.sets.pipatterns import MAX_DEPTH  # deeper is refused by set.resources

    yield root
    count = 1
    top = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root):
        # os.walk recurses: a thousand-deep tree would end it with a RecursionError.
        deep = len(Path(dirpath).parts) - top >= MAX_DEPTH
        dirnames[:] = [] if deep else sorted(d for d in dirnames if d != ".git")
        for name in (*dirnames, *sorted(filenames)):
            if count >= limit:
                return
            count += 1
            yield Path(dirpath, name)


def writable_by_others(paths: Iterable[Path]) -> list[Path]:
    """The paths (not symlinks, whose own mode means nothing) that group or others may write."""
    out = []
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISLNK(st.st_mode) and st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            out.append(path)
    return out


def owned_by_others(paths: Iterable[Path]) -> list[Path]:
    """The paths owned neither by this user nor by root (who could change them anyway)."""
    if not hasattr(os, "getuid"):
        return []
    me = os.getuid()
    out = []
    for path in paths:
        try:
            owner = os.lstat(path).st_uid
        except OSError:
            continue
        if owner not in (me, 0):
            out.append(path)
    return out


def listed(paths: list[Path]) -> str:
    """The first few paths, and how many more."""
    shown = ", ".join(str(p) for p in paths[:SHOWN])
    more = len(paths) - SHOWN
    return shown + (f" and {more} more" if more > 0 else "")
