"""Atomic replacement of a file: stage a temp file beside it (fsynced), then os.replace.

The one way ext replaces a file it keeps: settings.json, the approvals store, its state
record, its caches, its session records and the copies of its agent files. The temp is made
with O_EXCL under a fresh name, so a link planted beside the file is never written through;
only `write_atomic` (settings.json) replaces what a link at the path leads to.
"""

from __future__ import annotations

import os
from pathlib import Path

from installer.ground.errors import ExtError, write_fix


def target_of(path: Path) -> Path:
    """The file a write really replaces: a symlinked settings.json stays a symlink. A link
    into a folder that does not exist is refused by name (helper-86: the write failed with
    "check that the folder is writable and has free space")."""
    target = Path(os.path.realpath(path))
    # The link at path itself, not a link above it (a dir not made yet under a linked HOME)
    if os.path.islink(path) and not target.parent.is_dir():
        raise ExtError(
            f"cannot write {path}: it is a link to {target}, in a folder that does not exist; "
            "it was left as it was",
            fix=f"point the link at a file, remove it, or make {target.parent}",
        )
    return target


def _write_failed(target: Path, err: OSError) -> ExtError:
    return ExtError(
        f"cannot write {target}: {err.strerror}; it was left as it was",
        fix=write_fix(err.errno, target.parent),
    )


def stage(target: Path, text: str | bytes, mode: int | None = None) -> Path:
    """Write text to a new temp file beside target, flushed to disk, with `mode` if given,
    else target's own mode (a new file gets the umask's)."""
    try:
        return _staged(target, text, mode)
    except OSError as err:
        raise _write_failed(target, err) from None


def _staged(target: Path, data: str | bytes, mode: int | None) -> Path:
    """`stage`, its OSError as it came (the temp is gone)."""
    if mode is None:
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = None
    # The pid in the name lets a later run tell a killed run's leftover from a live one's.
    temp = target.with_name(f".{target.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if mode else 0o666)
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
            handle.flush()
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
    except OSError as err:
        discard(temp)
        if err.filename is None:  # a write or fsync says nothing of where: name the file
            raise OSError(err.errno, err.strerror, str(target)) from err
        raise
    except BaseException:
        discard(temp)
        raise
    return temp


def commit(temp: Path, target: Path) -> None:
    """Put a staged temp file in target's place in one step; the temp is gone either way."""
    try:
        temp.replace(target)
    except OSError as err:
        discard(temp)
        raise _write_failed(target, err) from None


def clear_orphans(target: Path) -> None:
    """Remove temp files beside target that a killed ext left (their pid is gone).

    Only ext's own names (`.<name>.<pid>-<8 hex>.tmp`, regular files) are touched; a temp of
    a run still alive, or any other file, stays. Best effort: a failure leaves the file.
    """
    import re

    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d+)-[0-9a-f]{{8}}\.tmp")
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        found = pattern.fullmatch(name)
        if found is None or alive(int(found.group(1))):
            continue
        path = target.parent / name
        try:
            if os.path.isfile(path) and not os.path.islink(path):
                path.unlink()
        except OSError:
            pass


def alive(pid: int) -> bool:
    """Whether a process with this pid exists (ours counts as alive)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0
    return True


def discard(temp: Path | None) -> None:
    """Remove a staged temp file that will not be used."""
    if temp is not None:
        temp.unlink(missing_ok=True)


def fsync_dir(folder: Path) -> None:
    """Make a rename durable; not every platform lets a folder be opened for that."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, text: str, mode: int | None = None) -> None:
    """Replace path's target with text atomically (temp beside it, fsync, os.replace)."""
    target = target_of(path)
    commit(stage(target, text, mode), target)
    fsync_dir(target.parent)
    clear_orphans(target)


def umask_mode() -> int:
    """The mode a new file gets here (0644 under the usual umask): a file the user shares with
    an agent is made so, whatever mode the one it replaces had."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def replace_own(path: Path, data: str | bytes, mode: int = 0o600) -> None:
    """Replace one of ext's own files in a folder of its own: a link at path is replaced,
    never written through. An OSError goes up as it came, for the transaction to name."""
    temp = _staged(path, data, mode)
    try:
        os.replace(temp, path)
    except BaseException:
        discard(temp)
        raise
    fsync_dir(path.parent)
    clear_orphans(path)
