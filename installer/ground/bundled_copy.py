"""The stable copy of a shipped set: made once per content change, one ext at a time.

Concurrent first runs (eight `ext install` at once after an upgrade) each found the copy
missing or different and swapped their own in, so another run reading the copy met a file
that had just vanished: a raw "No such file or directory". Now the copy is checked, and made,
under a lock on its folder, and a read that meets a vanished file reads again under it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from installer.ground.errors import ExtError
from installer.ground.manifest import MANIFEST_NAME


def stable_copy(shipped: Path, stable: Path) -> Path:
    """Copy a shipped set to a stable path once per content change, swapping it in whole."""
    if _same(shipped, stable):
        return stable
    stable.parent.mkdir(parents=True, exist_ok=True)
    with _folder_lock(stable.parent):
        if _same(shipped, stable):  # another ext made it while this one waited
            return stable
        try:
            _swap_in(shipped, stable)
        except OSError as exc:
            raise ExtError(
                f"could not copy ext's bundled set to {stable} ({_what(exc)}): its files changed "
                "under ext (an upgrade of ext at work?); nothing was written",
                "run the command again",
            ) from None
    return stable


def _what(exc: OSError) -> str:
    """The first failure: copytree gathers them all into one shutil.Error of (src, dst, why)."""
    import shutil

    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list):
        src, _, why = exc.args[0][0]
        return f"{src}: {why}"
    return f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc)


def _same(shipped: Path, stable: Path) -> bool:
    """Whether the copy holds exactly the shipped files; a file vanishing mid-read: not yet."""
    try:
        return (stable / MANIFEST_NAME).is_file() and _same_tree(shipped, stable)
    except OSError:  # another ext swapping the copy in: decided again under the lock
        return False


def _swap_in(shipped: Path, stable: Path) -> None:
    import shutil

    fresh = stable.with_name(f".{stable.name}.new-{os.getpid()}")
    shutil.rmtree(fresh, ignore_errors=True)
    try:
        shutil.copytree(shipped, fresh, symlinks=False)
    except OSError:
        shutil.rmtree(fresh, ignore_errors=True)  # a half copy is nobody's
        raise
    old = stable.with_name(f".{stable.name}.old-{os.getpid()}")
    if stable.exists():
        stable.rename(old)
    fresh.rename(stable)
    shutil.rmtree(old, ignore_errors=True)


@contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """An flock on the folder itself: no lock file is left beside the copy."""
    if sys.platform == "win32":  # no flock: copies may race there, as before
        yield
        return
    import fcntl

    fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a copy takes a moment: waiting is the point
        yield
    finally:
        os.close(fd)


def _same_tree(a: Path, b: Path) -> bool:
    files_a, files_b = _files(a), _files(b)
    if files_a != files_b:
        return False
    return all((a / rel).read_bytes() == (b / rel).read_bytes() for rel in files_a)


def _files(root: Path) -> set[Path]:
    return {Path(d, n).relative_to(root) for d, _, names in os.walk(root) for n in names}
