"""ext's own lock on an agent dir, so a concurrent run plans from what the first one wrote.

It is an `flock` on `<agent>/.extset/lock`, taken directly: the same lock filelock takes on
POSIX (earlier ext versions used it, so they still exclude each other), without filelock 4's
import, 25-30 ms that a fresh install of 1,000 links would spend on a single system call.
Where there is no `flock` (Windows; a file system that answers ENOSYS) filelock does the
job, with its own fallback: there the lock file's presence is the lock, so ext removes the
one it just made before handing over.
"""

from __future__ import annotations

import errno
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from installer.ground.clock import when_run
from installer.ground.errors import ExtError

if sys.platform != "win32":
    import fcntl

WAIT_SECONDS = 30.0
_HELD: set[str] = set()  # the agent dirs whose lock this process holds
NOTE_AFTER_SECONDS = 1.0  # a longer wait is said, once
POLL_SECONDS = 0.05


@contextmanager
def agent_lock(agent_dir: Path, timeout: float = WAIT_SECONDS) -> Iterator[None]:
    """Hold `<agent>/.extset/lock` while the body runs; wait up to `timeout` s for another ext."""
    from installer.ground import own

    folder = agent_dir / ".extset"
    own.ensure_dir(folder)
    path = folder / "lock"
    if sys.platform == "win32":
        with _filelock(path, agent_dir, timeout):
            yield
        return
    fd, made = _open(path)
    try:
        taken = _flock(fd, path, agent_dir, timeout)
    except BaseException:
        os.close(fd)
        raise
    if not taken:
        os.close(fd)
        if made:
            path.unlink(missing_ok=True)
        with _filelock(path, agent_dir, timeout):
            yield
        return
    _HELD.add(str(agent_dir))
    try:
        yield
    finally:
        _HELD.discard(str(agent_dir))
        os.close(fd)  # releases the flock


def free(agent_dir: Path) -> bool:
    """Whether no ext holds the agent dir's lock now: this process's own hold counts as free
    (it is at work, no other), as does a lock file not there. False where it cannot tell
    (no flock here): a run that holds the lock is at work, and one that died let it go."""
    if str(agent_dir) in _HELD:
        return True
    if sys.platform == "win32":
        return False
    try:
        fd = os.open(agent_dir / ".extset" / "lock", os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:  # held (BlockingIOError), or no flock on this file system
        return False
    finally:
        os.close(fd)  # and with it the shared lock, if taken
    return True


def _open(path: Path) -> tuple[int, bool]:
    """The lock file, opened for the flock; and whether this call made it."""
    flags = os.O_RDWR | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    try:
        try:
            return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o600), True
        except FileExistsError:
            return os.open(path, flags), False
    except OSError as err:
        if err.errno == errno.EROFS:  # removing the lock could not help, nor is it possible
            raise ExtError(
                f"cannot open ext's lock {path}: the file system is read-only; nothing was written",
                f"remount the file system of {path.parent.parent} read-write, or pass "
                "--agent-dir to a writable folder",
            ) from None
        if err.errno == errno.ENOSPC:
            raise ExtError(
                f"cannot create ext's lock {path}: no space left on the device",
                f"free some space on the disk that holds {path.parent}, then run ext again",
            ) from None
        from installer.ground.shellword import shell_word

        raise ExtError(
            f"cannot open ext's lock {path}: {err.strerror}",
            f"make it a plain file you can write, or remove it: rm {shell_word(path)}",
        ) from None


def _flock(fd: int, path: Path, agent_dir: Path, timeout: float) -> bool:
    """Take the lock, polling until the deadline; False where this file system has no flock."""
    start = time.monotonic()
    told = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            pass
        except OSError as err:
            if err.errno == errno.ENOSYS:
                return False
            raise ExtError(
                f"cannot lock {path}: {err.strerror}",
                "put the agent dir on a local file system, or pass --agent-dir to one",
            ) from None
        waited = time.monotonic() - start
        if waited >= timeout:
            raise _busy(agent_dir, timeout)
        if not told and waited > NOTE_AFTER_SECONDS:
            from installer.ground.notices import note

            note(f"waiting for {_holder(agent_dir)} working on {agent_dir} (it holds {path})")
            told = True
        time.sleep(POLL_SECONDS)


@contextmanager
def _filelock(path: Path, agent_dir: Path, timeout: float) -> Iterator[None]:
    from filelock import FileLock, Timeout

    lock = FileLock(path, mode=0o600)
    try:
        lock.acquire(timeout=timeout)
    except Timeout:
        raise _busy(agent_dir, timeout) from None
    try:
        yield
    finally:
        lock.release()


def _busy(agent_dir: Path, timeout: float) -> ExtError:
    return ExtError(
        f"{_holder(agent_dir)} is working on {agent_dir} and held its lock for {timeout:.0f} s; "
        "nothing was written",
        "wait for it to finish, then run this again",
    )


def _holder(agent_dir: Path) -> str:
    """Who holds the lock, as its journal names it: `ext install` (pid 4805, started …);
    a run that is still planning has written none yet."""
    from installer.engine.journal import at_work, pid_of

    rec = at_work(agent_dir)
    if rec is None:
        return "another ext"
    return f"`ext {rec.command}` (pid {pid_of(rec.path)}, started {when_run(rec.started)})"
