"""extset.toml files already parsed, kept as JSON in ext's cache dir.

Importing tomllib costs ~7 ms here, a tenth of a no-op `ext install` and more of `ext env`,
which a shell may run at every start. A manifest rarely changes, so its parsed table is kept
with the file's stat (device, inode, size, mtime and ctime in ns) and used while the stat is
the same; `ext` never writes a manifest in place without changing them. As git does with
its index, a table is not kept while its file is under two seconds old: a file system with
coarse timestamps could see a second edit without a change of stat.

A table decides what ext runs (`[host] command`), so the cache is kept as privately as
ext's other files: its folder 0700, the file 0600, and one not owned by this user or
writable by others is not read. Otherwise it is a convenience: a missing, unreadable or
corrupt cache is a miss, and a failed write is ignored.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from installer.ground.errors import ExtError
from installer.ground.userdirs import user_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CACHE_NAME = "manifests.json"
KEEP = 32  # sets remembered; the oldest goes first
SETTLED_NS = 2_000_000_000


def stamp(st: os.stat_result) -> list[int]:
    """What identifies one version of a file: where it is, its size and both its times."""
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def cache_path() -> Path:
    """`<user cache dir>/extset/manifests.json`."""
    return user_dir("cache") / CACHE_NAME


def cached(path: Path, st: os.stat_result) -> dict[str, Any] | None:
    """The table parsed from path when it had this stat; None when there is none."""
    entry = _entries().get(str(path))
    if isinstance(entry, dict) and entry.get("stamp") == stamp(st):
        data = entry.get("data")
        return data if isinstance(data, dict) else None
    return None


def remember(path: Path, st: os.stat_result, data: dict[str, Any], seen_at: int) -> None:
    """Keep the table parsed from path with the stat it had at `seen_at` (time.time_ns() taken
    before the stat), unless the file was too new then, or the table does not come back from
    JSON as it went in (dates, NaN)."""
    if seen_at - max(st.st_mtime_ns, st.st_ctime_ns) < SETTLED_NS:
        return
    try:
        if json.loads(json.dumps(data)) != data:
            return
    except (TypeError, ValueError):
        return
    entries = _entries()
    entries.pop(str(path), None)
    entries[str(path)] = {"stamp": stamp(st), "data": data}
    kept = dict(list(entries.items())[-KEEP:])
    target = cache_path()
    from installer.ground import atomic  # a write: only on a miss

    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        atomic.replace_own(target, json.dumps(kept))  # never half-written, never through a link
    except (OSError, ExtError):
        pass


def _entries() -> dict[str, Any]:
    try:
        with open(cache_path(), "rb") as handle:
            if not _private(os.fstat(handle.fileno())):
                return {}
            entries = json.loads(handle.read())
    except (OSError, ValueError):
        return {}
    return entries if isinstance(entries, dict) else {}


def _private(st: os.stat_result) -> bool:
    """Owned by this user and writable by no one else (where there are owners to check)."""
    owner = getattr(os, "getuid", None)
    return owner is None or (st.st_uid == owner() and not st.st_mode & 0o022)
