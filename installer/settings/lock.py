"""pi's own lock on settings.json: the directory `settings.json.lock`, as proper-lockfile makes it.

pi 0.73.1 (`dist/core/settings-manager.js`) calls `lockfile.lockSync(path, {realpath: false})`
up to 10 times, 20 ms apart, and proper-lockfile 4.1.2 (`lib/lockfile.js`) then: `mkdir`s
`<path>.lock` (the atomic step); on EEXIST treats the lock as stale when its mtime is more than
10 s old, removes it and tries again; refreshes the mtime every 5 s while held; `rmdir`s it on
release. `realpath: false` means the lock sits beside the path as given, even when
settings.json is a symlink. ext does the same, and simply waits longer: it is not
latency-critical, and a wait longer than the stale threshold always outlives a crashed holder.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from installer.ground.errors import ExtError

STALE_SECONDS = 10.0
WAIT_SECONDS = 30.0
NOTE_AFTER_SECONDS = 1.0  # a wait longer than this is said, once
POLL_SECONDS = 0.02
REFRESH_SECONDS = 2.5


def lock_path(settings_path: Path) -> Path:
    """Where pi and ext put the lock for this settings file (symlinks not followed)."""
    return Path(os.path.normpath(Path(settings_path).absolute()) + ".lock")


class SettingsLock:
    """A held lock: keeps its mtime fresh until released, and knows when it was taken over."""

    def __init__(self, path: Path, refresh: float = REFRESH_SECONDS) -> None:
        import threading

        self.path = path
        self._refresh = refresh
        self._guard = threading.Lock()
        self._stop = threading.Event()
        self._stamp = _stamp(path)
        self._lost = False
        _claim(path, self._stamp)
        self._thread = threading.Thread(target=self._keep_fresh, name="settings-lock", daemon=True)
        self._thread.start()

    def _keep_fresh(self) -> None:
        while not self._stop.wait(self._refresh):
            with self._guard:
                if self._lost or self._stop.is_set():
                    return
                try:
                    if _stamp(self.path) != self._stamp:
                        self._lost = True
                        return
                    os.utime(self.path)
                    self._stamp = _stamp(self.path)
                    _claim(self.path, self._stamp)
                except OSError:
                    self._lost = True
                    return

    def ensure_held(self) -> None:
        """Raise unless the lock directory is still the one we made (not taken over as stale)."""
        with self._guard:
            try:
                held = not self._lost and _stamp(self.path) == self._stamp
            except OSError:
                held = False
        if not held:
            raise ExtError(
                f"lost the lock {self.path} while changing settings.json; nothing was written",
                fix="run the command again (another pi or ext took the lock over as stale)",
            )

    def release(self) -> None:
        """Stop refreshing and remove the lock, unless someone else owns it by now."""
        with self._guard:
            self._stop.set()
        self._thread.join()
        try:
            if not self._lost and _stamp(self.path) == self._stamp:
                self.path.rmdir()
        except FileNotFoundError:
            pass
        _unclaim(self.path)


def _stamp(path: Path) -> tuple[int, int]:
    st = os.lstat(path)
    return st.st_ino, st.st_mtime_ns


def _owner_file(path: Path) -> Path | None:
    """Where ext notes that it holds the lock: in `.extset/` beside settings.json, if there."""
    folder = path.parent / ".extset"
    try:
        return folder / "settings-lock.owner" if stat.S_ISDIR(os.lstat(folder).st_mode) else None
    except OSError:
        return None


def _claim(path: Path, stamp: tuple[int, int]) -> None:
    """Note our pid with the lock dir's (inode, mtime), so a kill -9 leaves a lock known stale.

    proper-lockfile's lock dir says nothing of its owner and pi would wait out 10 s. The
    note matches only the very dir we made at its last refresh: a lock dir pi made since
    (even on a reused inode) has another mtime and is never taken for ours.
    """
    from installer.ground import own

    owner = _owner_file(path)
    if owner is None:
        return
    try:  # never through a link, never blocking on a FIFO planted there
        fd = own.open_file(owner, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    except (OSError, ExtError):
        return
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(f"{os.getpid()} {stamp[0]} {stamp[1]}\n")


def _unclaim(path: Path) -> None:
    owner = _owner_file(path)
    claim = _read_claim(owner)
    if owner is not None and claim is not None and claim[0] == os.getpid():
        owner.unlink(missing_ok=True)


def _read_claim(owner: Path | None) -> tuple[int, int, int] | None:
    """(pid, inode, mtime_ns) noted in the owner file, or None."""
    if owner is None:
        return None
    from installer.ground import own

    try:
        fd = own.open_file(owner, os.O_RDONLY)
        with os.fdopen(fd, encoding="ascii") as handle:
            pid, ino, mtime = (int(x) for x in handle.read(100).split())
    except (OSError, ValueError, ExtError):
        return None
    return pid, ino, mtime


def _claimed_by(path: Path) -> int | None:
    """The pid noted as holding this very lock dir, or None."""
    claim = _read_claim(_owner_file(path))
    try:
        return claim[0] if claim is not None and _stamp(path) == claim[1:] else None
    except OSError:
        return None


def _dead_holder(path: Path) -> bool:
    """Whether the lock is ours from a run that is gone (killed): stale at once."""
    from installer.ground.atomic import alive

    pid = _claimed_by(path)
    return pid is not None and not alive(pid)


def _not_a_lock_dir(path: Path) -> ExtError:
    from installer.ground.shellword import shell_word

    return ExtError(
        f"{path} is not a directory; pi cannot lock settings.json while it is there "
        "and reads settings.json as empty (no packages, no switches)",
        fix=f"remove it (rm {shell_word(path)}) if no pi is starting right now, then run the "
        "command again",
    )


def _try_take(path: Path, stale: float) -> bool:
    """One attempt: make the lock dir, or remove a stale one and make it. True when ours."""
    try:
        path.mkdir()
        return True
    except FileExistsError:
        pass
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False  # released meanwhile: the next attempt's mkdir decides
    if not stat.S_ISDIR(st.st_mode):
        raise _not_a_lock_dir(path)
    if st.st_mtime >= time.time() - stale and not _dead_holder(path):
        return False
    try:
        # Look again right before removing, to narrow the window in which a fresh lock
        # made by another taker could be removed (a race proper-lockfile has as well).
        if _stamp(path) == (st.st_ino, st.st_mtime_ns):
            path.rmdir()
    except FileNotFoundError:
        pass
    except OSError as err:
        raise ExtError(
            f"cannot remove the stale lock {path}: {err.strerror}",
            fix=f"remove the folder {path} by hand, then run the command again",
        ) from None
    return False


def inspect_lock(settings_path: Path, stale: float = STALE_SECONDS) -> str:
    """The lock's state, for doctor: "free", "held", "stale", or "file" (pi cannot lock)."""
    try:
        st = os.lstat(lock_path(settings_path))
    except FileNotFoundError:
        return "free"
    if not stat.S_ISDIR(st.st_mode):
        return "file"
    path = lock_path(settings_path)
    return "stale" if st.st_mtime < time.time() - stale or _dead_holder(path) else "held"


@contextmanager
def settings_lock(
    settings_path: Path,
    *,
    wait: float = WAIT_SECONDS,
    stale: float = STALE_SECONDS,
    poll: float = POLL_SECONDS,
    refresh: float = REFRESH_SECONDS,
) -> Iterator[SettingsLock]:
    """Hold pi's lock on settings_path; wait up to `wait` seconds for another holder.

    A lock dir whose mtime is older than `stale` seconds is taken over; ours has its mtime
    refreshed every `refresh` seconds until released. A *file* at the lock path is an error.
    """
    path = lock_path(settings_path)
    start = time.monotonic()
    deadline = start + wait
    told = False
    while True:
        try:
            taken = _try_take(path, stale)
        except OSError as err:
            raise ExtError(
                f"cannot lock {settings_path}: {err.strerror} ({path})",
                fix=f"check that {path.parent} exists and is writable",
            ) from None
        if taken:
            break
        if time.monotonic() >= deadline:
            raise ExtError(
                f"{settings_path} stayed locked for {wait:g} s by another pi or ext",
                fix=f"retry; if no pi or ext is running, remove the folder {path}",
            )
        if not told and time.monotonic() - start > NOTE_AFTER_SECONDS:
            from installer.ground.notices import note

            note(f"waiting for {path} (held by pi or another ext; taken over once stale)")
            told = True
        # Jitter keeps two waiters from polling in lockstep.
        import random  # only a busy lock waits: the common path never loads it

        time.sleep(poll * (0.5 + random.random()))  # noqa: S311
    lock = SettingsLock(path, refresh)
    try:
        yield lock
    finally:
        lock.release()
