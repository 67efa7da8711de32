"""The approvals store on disk: `<agent dir>/.extset/consent/project-approvals.json`.

Read without a lock (writes are atomic replaces, so a reader sees a whole
file); changed under a file lock with a temp file, fsync and os.replace. A
store that cannot be read or parsed is never written over.

Consent holds only from a safe store: the file and its folders are what they
say (no symlinks, opened with O_NOFOLLOW), owned by the user, and writable by
no one else. Anything else holds no approvals, and ext will not write there.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from installer.consent.limits import MAX_APPROVALS, MAX_STORE_BYTES
from installer.consent.record import Approval, CorruptRecord, parse_document, render_document
from installer.ground.errors import ExtError

# pi scans neither `.extset/` nor anything under it (only a `hooks/` or `tools/`
# folder of the agent dir trips its start-up warning: dist/migrations.js).
FOLDER = ".extset/consent"
FILENAME = "project-approvals.json"
FOLDER_MODE = 0o700
FILE_MODE = 0o600
LOCK_TIMEOUT_SECONDS = 30.0

Change = Callable[[dict[str, Approval]], bool]


@dataclass(frozen=True)
class Store:
    """The approvals as read, keyed by project realpath, and any warnings about the store.

    `unsafe` says why the store holds no approvals (None when it is safe).
    """

    path: Path
    approvals: dict[str, Approval]
    warnings: tuple[str, ...] = ()
    unsafe: str | None = None


def store_path(agent_dir: Path) -> Path:
    """Where the approvals of this agent dir live."""
    return agent_dir / FOLDER / FILENAME


def lock_path(agent_dir: Path) -> Path:
    """The lock file taken while the store is changed."""
    return agent_dir / FOLDER / f".{FILENAME}.lock"


def read_store(agent_dir: Path) -> Store:
    """The store's approvals (none when it does not exist or is unsafe), with warnings."""
    path = store_path(agent_dir)
    unsafe = _unsafe_folders(agent_dir)
    if unsafe is None:
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return Store(path, {})
        except OSError:
            info = None
        unsafe = _unsafe_file(path, info) if info is not None else None
    if unsafe is not None:
        warning = f"{unsafe}, so it holds no approvals: no project's hooks are approved."
        return Store(path, {}, (f"{warning} {unsafe_fix(path)}",), unsafe)
    approvals = _parse(path)
    return Store(path, approvals, tuple(_mode_warnings(path, fixed=False)))


def update_store(
    agent_dir: Path, change: Change, before_write: Callable[[bytes], None] | None = None
) -> Store:
    """Apply change to the approvals under the lock; write them when it returns True.

    `before_write` is given the bytes about to be written, under the lock (the journal)."""
    import filelock

    path = store_path(agent_dir)
    check_safe(agent_dir)
    warnings = tuple(_mode_warnings(path, fixed=True))
    _ensure_folders(agent_dir)
    try:
        with filelock.FileLock(lock_path(agent_dir), timeout=LOCK_TIMEOUT_SECONDS, mode=FILE_MODE):
            current = read_store(agent_dir)
            _refuse_unsafe(current)
            approvals = dict(current.approvals)
            if not change(approvals):
                return current
            data = render_document(approvals)
            _refuse_too_big(path, approvals, data)
            if before_write is not None:
                before_write(data)
            _write_atomic(path, data)
    except filelock.Timeout as exc:
        raise ExtError(
            f"another ext is changing {path} and has held its lock for "
            f"{LOCK_TIMEOUT_SECONDS:.0f} s",
            fix=f"let it finish, or remove {lock_path(agent_dir)} if no ext is running",
        ) from exc
    return Store(path, approvals, warnings)


def _refuse_too_big(path: Path, approvals: dict[str, Approval], data: bytes) -> None:
    """A store past its caps would slow every pi session's start: refuse to write it."""
    if len(approvals) > MAX_APPROVALS:
        said = f"{len(approvals)} approvals, over the {MAX_APPROVALS} a store may hold"
    elif len(data) > MAX_STORE_BYTES:
        said = f"{len(data)} bytes, over the {MAX_STORE_BYTES >> 20} MiB a store may hold"
    else:
        return
    raise ExtError(
        f"{path} would then hold {said}; nothing was written",
        fix="revoke approvals you no longer need (`ext consent list`, then "
        "`ext consent revoke DIR`), then run the command again",
    )


def check_safe(agent_dir: Path) -> None:
    """Refuse to write a store that is unsafe (a link, open to others): see unsafe_reason."""
    _refuse_unsafe(read_store(agent_dir))


def unsafe_reason(agent_dir: Path) -> str | None:
    """Why the store cannot be trusted, or None when it is safe (or not there yet)."""
    return read_store(agent_dir).unsafe if _exists(store_path(agent_dir)) else None


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _unsafe_folders(agent_dir: Path) -> str | None:
    """Why `.extset/` or `.extset/consent/` cannot hold a trusted store, if one can't."""
    folder = agent_dir
    for part in FOLDER.split("/"):
        folder = folder / part
        try:
            info = os.lstat(folder)
        except FileNotFoundError:
            return None  # nothing there: no store, nothing to distrust
        except OSError as exc:
            return f"{folder} cannot be examined ({exc.strerror})"
        if stat.S_ISLNK(info.st_mode):
            return f"{folder} is a symlink, and ext's own folders are never links"
        if not stat.S_ISDIR(info.st_mode):
            return f"{folder} is not a folder"
        # Others writing `.extset/` could only move `consent/` away, not forge one owned
        # by the user: the owner matters there, the mode only for the store's own folder.
        problem = _owner_or_writers(info, mode_too=folder.name == "consent")
        if problem:
            return f"{folder} {problem}"
    return None


def _unsafe_file(path: Path, info: os.stat_result) -> str | None:
    if stat.S_ISLNK(info.st_mode):
        return f"The approvals store {path} is a symlink"
    if not stat.S_ISREG(info.st_mode):
        return None  # not a file at all: reading it says so, as a corrupt store
    problem = _owner_or_writers(info)
    return f"The approvals store {path} {problem}" if problem else None


def _owner_or_writers(info: os.stat_result, mode_too: bool = True) -> str | None:
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return f"is owned by another user (uid {info.st_uid})"
    mode = stat.S_IMODE(info.st_mode)
    if mode_too and mode & 0o022:
        return f"is writable by other users (mode {mode:04o})"
    return None


def _refuse_unsafe(store: Store) -> None:
    if store.unsafe is None:
        return
    raise ExtError(
        f"{store.unsafe}, so its approvals cannot be trusted; nothing was written",
        fix=unsafe_fix(store.path),
    )


def unsafe_fix(path: Path) -> str:
    """How to make an unsafe store trusted again, or start afresh."""
    return (
        f"Look at {path} (and its folders); if every approval in it is yours, make them yours "
        "alone (chown to you, chmod 700 the folders, chmod 600 the file, no symlinks), else "
        "move it aside to start with no approvals."
    )


def _parse(path: Path) -> dict[str, Approval]:
    try:
        # O_NONBLOCK: a FIFO planted there would otherwise wait for a writer forever.
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise IsADirectoryError(21, "not a regular file")
            data = handle.read(MAX_STORE_BYTES + 1)
        if len(data) > MAX_STORE_BYTES:
            raise CorruptRecord(f"over {MAX_STORE_BYTES >> 20} MiB, the most a store may hold")
        return parse_document(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        reason = f"unreadable ({getattr(exc, 'strerror', None) or exc})"
    except CorruptRecord as exc:
        reason = f"corrupt: {exc}"
    from installer.ground.shellword import shell_word

    bad = shell_word(Path(f"{path}.bad"))
    raise ExtError(
        f"the approvals store {path} is {reason}; it was left as it is",
        fix=f"move it aside (mv {shell_word(Path(path))} {bad}) to start with no approvals, "
        "or restore it from a backup",
    )


def _mode_warnings(path: Path, *, fixed: bool) -> list[str]:
    warnings = []
    for target, wanted in ((path.parent, FOLDER_MODE), (path, FILE_MODE)):
        try:
            mode = stat.S_IMODE(os.lstat(target).st_mode)
        except OSError:
            continue
        if mode & ~wanted:
            then = (
                f"it is now {wanted:04o}" if fixed else f"it will be {wanted:04o} on the next write"
            )
            warnings.append(f"{target} had mode {mode:04o}, open to other users; {then}.")
    return warnings


def _ensure_folders(agent_dir: Path) -> None:
    """Make `.extset/consent/` (0700), fixing its mode through a handle that follows no link."""
    folder = agent_dir / FOLDER
    try:
        (agent_dir / ".extset").mkdir(mode=FOLDER_MODE, exist_ok=True)
        folder.mkdir(mode=FOLDER_MODE, exist_ok=True)
        flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(folder, flags)
        try:
            if stat.S_IMODE(os.fstat(fd).st_mode) != FOLDER_MODE:
                os.fchmod(fd, FOLDER_MODE)
        finally:
            os.close(fd)
    except OSError as exc:
        raise _write_error(folder, exc) from exc


def _write_atomic(path: Path, data: bytes) -> None:
    """Replace path (never a link's target) with data, 0600; a failure changes nothing."""
    from installer.ground import atomic

    try:
        atomic.commit(atomic.stage(path, data, mode=FILE_MODE), path)
        atomic.fsync_dir(path.parent)
    except ExtError as exc:
        raise ExtError(f"{exc.message.rstrip('.')}; the approvals are unchanged", exc.fix) from None


def _write_error(path: Path, exc: OSError) -> ExtError:
    return ExtError(
        f"could not write {path}: {exc.strerror or exc}; the approvals are unchanged",
        fix=f"make {path.parent} writable by you, then run the command again",
    )
