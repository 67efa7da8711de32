"""ext's own files in `<agent>/.extset/`: made, opened and removed without following a link.

A symlink planted at `.extset/journal` or `.extset/state.json` would have ext write its
journal or state into whatever it points to, and trim that folder's files. ext never makes
a link among its own files, so any link (or FIFO, or device) there is refused, naming the
path and the one safe fix: remove the entry (only the link goes, never what it points to).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from installer.ground.errors import ExtError

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)

FOLDER = ".extset"
# What ext keeps in FOLDER, and the kind of each; anything else in there is left alone.
ENTRIES = {
    "journal": "folder",
    "state.json": "file",
    "lock": "file",
    "settings-lock.owner": "file",
    "sessions": "folder",
    "agent": "folder",
}


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    return "a special file"


def refused(path: Path, what: str) -> ExtError:
    """The error for an entry among ext's files that ext did not make."""
    from installer.ground.shellword import shell_word

    return ExtError(
        f"{path} is {what}; ext never reads or writes its own files through it",
        fix=f"remove it (rm {shell_word(path)}: only that entry goes, not what it points to), "
        "then run ext again",
    )


def check(path: Path, want: str) -> bool:
    """Refuse path unless it is absent or a real `want` ("file" or "folder"); True if present."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    got = _kind(mode)
    if got != want:
        raise refused(path, got if got.startswith("a ") else f"a {got}, not a {want}")
    return True


def check_bookkeeping(agent_dir: Path) -> None:
    """Refuse a `.extset/` (or an entry of it) that is a link, FIFO or of the wrong kind."""
    folder = agent_dir / FOLDER
    if check(folder, "folder"):
        for name, want in ENTRIES.items():
            check(folder / name, want)


def ensure_dir(path: Path, mode: int = 0o700) -> None:
    """Make a folder of ext's own (and its missing parents), refusing one that is a link."""
    if check(path, "folder"):
        return  # the common case: one lstat, no mkdir that fails
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=mode, parents=True)
    check(path, "folder")


def open_file(path: Path, flags: int, mode: int = 0o600) -> int:
    """os.open of one of ext's files, never through a symlink, never a FIFO or device."""
    check(path, "file")
    try:
        fd = os.open(path, flags | NOFOLLOW | CLOEXEC | NONBLOCK, mode)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise refused(path, "a symlink") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise refused(path, "not a regular file")
    return fd


def read_text(path: Path) -> str | None:
    """One of ext's files as text (bytes as they are, CRLF kept), or None when absent."""
    try:
        fd = open_file(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        return handle.read().decode("utf-8")


def unlink(path: Path) -> None:
    """Remove one of ext's files (absent is fine); a link or folder there is refused."""
    if check(path, "file"):
        path.unlink(missing_ok=True)
