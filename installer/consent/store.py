"""The approvals store on disk: `<agent dir>/hooks/project-approvals.json`.

Read without a lock (writes are atomic replaces, so a reader sees a whole
file); changed under a file lock with a temp file, fsync and os.replace. A
store that cannot be read or parsed is never written over.
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from installer.consent.record import Approval, CorruptRecord, parse_document, render_document
from installer.errors import ExtError

FOLDER = "hooks"
FILENAME = "project-approvals.json"
FOLDER_MODE = 0o700
FILE_MODE = 0o600
LOCK_TIMEOUT_SECONDS = 30.0

Change = Callable[[dict[str, Approval]], bool]


@dataclass(frozen=True)
class Store:
    """The approvals as read, keyed by project realpath, and any warnings about the store."""

    path: Path
    approvals: dict[str, Approval]
    warnings: tuple[str, ...] = ()


def store_path(agent_dir: Path) -> Path:
    """Where the approvals of this agent dir live."""
    return agent_dir / FOLDER / FILENAME


def lock_path(agent_dir: Path) -> Path:
    """The lock file taken while the store is changed."""
    return agent_dir / FOLDER / f".{FILENAME}.lock"


def read_store(agent_dir: Path) -> Store:
    """The store's approvals (none when it does not exist), with permission warnings."""
    path = store_path(agent_dir)
    if not path.exists() and not path.is_symlink():
        return Store(path, {})
    approvals = _parse(path)
    return Store(path, approvals, tuple(_mode_warnings(path, fixed=False)))


def update_store(agent_dir: Path, change: Change) -> Store:
    """Apply change to the approvals under the lock; write them when it returns True."""
    import filelock

    path = store_path(agent_dir)
    warnings = tuple(_mode_warnings(path, fixed=True))
    _ensure_folder(path.parent)
    try:
        with filelock.FileLock(lock_path(agent_dir), timeout=LOCK_TIMEOUT_SECONDS, mode=FILE_MODE):
            current = read_store(agent_dir)
            approvals = dict(current.approvals)
            if not change(approvals):
                return current
            _write_atomic(path, render_document(approvals))
    except filelock.Timeout as exc:
        raise ExtError(
            f"Another ext is changing {path} and has held its lock for "
            f"{LOCK_TIMEOUT_SECONDS:.0f} s.",
            fix=f"Let it finish, or remove {lock_path(agent_dir)} if no ext is running.",
        ) from exc
    return Store(path, approvals, warnings)


def _parse(path: Path) -> dict[str, Approval]:
    try:
        return parse_document(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        reason = f"unreadable ({getattr(exc, 'strerror', None) or exc})"
    except CorruptRecord as exc:
        reason = f"corrupt: {exc}"
    raise ExtError(
        f"The approvals store {path} is {reason}; it was left as it is.",
        fix=f"Move it aside (mv {path} {path}.bad) to start with no approvals, "
        "or restore it from a backup.",
    )


def _mode_warnings(path: Path, *, fixed: bool) -> list[str]:
    warnings = []
    for target, wanted in ((path.parent, FOLDER_MODE), (path, FILE_MODE)):
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except OSError:
            continue
        if mode & ~wanted:
            then = (
                f"it is now {wanted:04o}" if fixed else f"it will be {wanted:04o} on the next write"
            )
            warnings.append(f"{target} had mode {mode:04o}, open to other users; {then}.")
    return warnings


def _ensure_folder(folder: Path) -> None:
    try:
        folder.mkdir(mode=FOLDER_MODE, exist_ok=True)
        if stat.S_IMODE(folder.stat().st_mode) != FOLDER_MODE:
            folder.chmod(FOLDER_MODE)
    except OSError as exc:
        raise _write_error(folder, exc) from exc


def _write_atomic(path: Path, data: bytes) -> None:
    """Replace path with data, 0600, atomically; any failure leaves the store as it was."""
    from installer import atomic

    try:
        atomic.write_atomic(path, data.decode("utf-8"), mode=FILE_MODE)
    except ExtError as exc:
        raise ExtError(f"{exc.message.rstrip('.')}; the approvals are unchanged", exc.fix) from None


def _write_error(path: Path, exc: OSError) -> ExtError:
    return ExtError(
        f"Could not write {path}: {exc.strerror or exc}; the approvals are unchanged.",
        fix=f"Make {path.parent} writable by you, then run the command again.",
    )
