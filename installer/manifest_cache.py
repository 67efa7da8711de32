"""extset.toml files already parsed, kept as JSON in ext's cache dir.

Importing tomllib costs ~7 ms here, a tenth of a no-op `ext install` and more of `ext env`,
which a shell may run at every start. A manifest rarely changes, so its parsed table is kept
with the file's stat (device, inode, size, mtime and ctime in ns) and used while the stat is
the same; `ext` never writes a manifest in place without changing them. As git does with
its index, a table is not kept while its file is under two seconds old: a file system with
coarse timestamps could see a second edit without a change of stat.

The cache is a convenience: a missing, unreadable or corrupt one is a miss, and a failed
write is ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

from installer.userdirs import user_dir

CACHE_NAME = "manifests.json"
KEEP = 32  # sets remembered; the oldest goes first
SETTLED_NS = 2_000_000_000


def stamp(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def cache_path() -> Path:
    return user_dir("cache") / CACHE_NAME


def cached(path: Path, st: os.stat_result) -> dict[str, Any] | None:
    """The table parsed from path when it had this stat; None when there is none."""
    entry = _entries().get(str(path))
    if isinstance(entry, dict) and entry.get("stamp") == stamp(st):
        data = entry.get("data")
        return data if isinstance(data, dict) else None
    return None


def remember(path: Path, st: os.stat_result, data: dict[str, Any]) -> None:
    """Keep the table parsed from path (with its stat), unless the file is too new for that or
    the table does not come back from JSON as it went in (dates, NaN)."""
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < SETTLED_NS:
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
    temp = target.with_name(f".{CACHE_NAME}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temp.write_text(json.dumps(kept), encoding="utf-8")
        os.replace(temp, target)  # readers see the old cache or the new one, never a part
    except OSError:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)


def _entries() -> dict[str, Any]:
    try:
        entries = json.loads(cache_path().read_bytes())
    except (OSError, ValueError):
        return {}
    return entries if isinstance(entries, dict) else {}
