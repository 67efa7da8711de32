"""The host's version, remembered by the identity of the binary that said it.

A pi behind a wrapper script or a version manager's shim has no package.json
beside it, so its version costs a Node start (`pi --version`). It is asked once
per binary identity (resolved path, size, mtime) and kept here; a day later it
is asked again, since a wrapper can stay the same file while the pi it starts is
upgraded. A hang is remembered too (as "unknown"), so it costs one timeout, not one
per command.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import NamedTuple

SCHEMA = 1
MAX_AGE = 24 * 3600.0
_KEEP = 16  # binaries remembered; the oldest go first


class Identity(NamedTuple):
    """What changes when the binary is replaced: its path, size and mtime (and inode)."""

    path: str
    size: int
    mtime_ns: int
    inode: int


class Cached(NamedTuple):
    version: str | None  # None: it printed no version, or hung


def cache_path() -> Path:
    """`<user cache dir>/extset/host-version.json`."""
    from installer.userdirs import user_dir

    return user_dir("cache") / "host-version.json"


def identity(resolved: Path) -> Identity | None:
    """The binary's identity; None when it cannot be read (then nothing is cached)."""
    try:
        st = resolved.stat()
    except OSError:
        return None
    return Identity(str(resolved), st.st_size, st.st_mtime_ns, st.st_ino)


def _read(path: Path) -> dict[str, dict[str, object]]:
    import json

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return {}
    hosts = data.get("hosts")
    if not isinstance(hosts, dict):
        return {}
    return {k: v for k, v in hosts.items() if isinstance(v, dict)}


def lookup(ident: Identity | None, now: float | None = None) -> Cached | None:
    """The remembered answer for this exact binary, if it is fresh; else None."""
    if ident is None:
        return None
    entry = _read(cache_path()).get(ident.path)
    if entry is None or [entry.get(k) for k in ("size", "mtime_ns", "inode")] != list(ident[1:]):
        return None
    at = entry.get("at")
    now = time.time() if now is None else now
    if not isinstance(at, (int, float)) or not 0 <= now - at < MAX_AGE:
        return None
    version = entry.get("version")
    return Cached(version if isinstance(version, str) else None)


def remember(ident: Identity | None, version: str | None) -> None:
    """Keep the answer for this binary; a cache that cannot be written only costs speed."""
    if ident is None:
        return
    import json

    from installer import atomic
    from installer.errors import ExtError

    path = cache_path()
    hosts = _read(path)
    hosts[ident.path] = {
        "size": ident.size,
        "mtime_ns": ident.mtime_ns,
        "inode": ident.inode,
        "version": version,
        "at": time.time(),
    }
    newest = sorted(hosts.items(), key=lambda kv: _at(kv[1]), reverse=True)[:_KEEP]
    text = json.dumps({"schema": SCHEMA, "hosts": dict(newest)}, indent=1) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.commit(atomic.stage(path, text), path)
    except (OSError, ExtError):
        pass


def _at(entry: dict[str, object]) -> float:
    at = entry.get("at")
    return float(at) if isinstance(at, (int, float)) else 0.0
