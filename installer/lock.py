"""ext's own lock on an agent dir, so a concurrent run plans from what the first one wrote."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from installer.errors import ExtError

WAIT_SECONDS = 30.0


@contextmanager
def agent_lock(agent_dir: Path, timeout: float = WAIT_SECONDS) -> Iterator[None]:
    """Hold `<agent>/.extset/lock` (filelock, imported here: it costs ~60 ms at start-up)."""
    from filelock import FileLock, Timeout

    folder = agent_dir / ".extset"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    lock = FileLock(folder / "lock", mode=0o600)
    try:
        lock.acquire(timeout=timeout)
    except Timeout:
        raise ExtError(
            f"another ext is working on {agent_dir} and held its lock for {timeout:.0f} s",
            "wait for it to finish, then run this again",
        ) from None
    try:
        yield
    finally:
        lock.release()
