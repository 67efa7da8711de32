"""ext's small answer caches (the host's version, version ranges): one JSON table a file.

A cache only saves time: one that is missing, unreadable, of another schema or behind a
symlink reads as empty, and one that cannot be written is left as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

Table = dict[str, dict[str, object]]


def read_table(path: Path, schema: int, key: str) -> Table:
    """The `key` table of a cache file, its rows that are objects; {} when there is none."""
    import json

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("schema") != schema:
        return {}
    table = data.get(key)
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(v, dict)}


def write_table(path: Path, schema: int, key: str, table: Table) -> None:
    """Replace the cache file with this table, atomically; a failure only costs speed."""
    import json

    from installer.ground import atomic
    from installer.ground.errors import ExtError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"schema": schema, key: table}, indent=1) + "\n"
        atomic.commit(atomic.stage(path, text), path)
    except (OSError, ExtError):
        pass
