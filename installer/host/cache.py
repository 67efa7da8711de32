"""The host's version, remembered by the identity of the binary that said it.

A pi behind a wrapper script or a version manager's shim has no package.json
beside it, so its version costs a Node start (`pi --version`). It is asked once
per binary identity (resolved path, size, mtime) and kept here. A wrapper stays the
same file while the pi it starts is upgraded, so the programs a small script names by
absolute path (`exec /opt/pi/bin/pi "$@"`: executable files, not a log it writes) are part
of its identity, and upgrading that pi asks again; a shim that finds pi at run time is asked
again a day later. A hang is remembered too (as "unknown"), so it costs one timeout, not
one per command; but only for an hour, since the first Node start after an install (a
cold disk) can outlast the timeout once, and the drift check should not stay blind for a
day.

Node's version (`node --version`, for the Node check in installer/host/node.py) is kept the
same way, in a file of its own.
"""

from __future__ import annotations

import time
from pathlib import Path

from installer.ground.cachefile import read_table, write_table
from installer.ground.records import NamedTuple

SCHEMA = 1
HOST = "host-version.json"  # pi's `--version`
NODE = "node-version.json"  # `node --version` of the Node that runs pi
MAX_AGE = 24 * 3600.0
UNKNOWN_MAX_AGE = 3600.0  # no version (a hang, an error): asked again sooner
_FIELDS = ("size", "mtime_ns", "inode", "named")  # Identity's fields after the path
_KEEP = 16  # binaries remembered; the oldest go first
_SCRIPT_MAX = 8192  # a wrapper script is small; a bigger file is a program, not read
_NAMED_MAX = 8  # files a script names, at most, that count for its identity


class Identity(NamedTuple):
    """What changes when the binary is replaced: its path, size and mtime (and inode), and
    the same of the files it names, when it is a script."""

    path: str
    size: int
    mtime_ns: int
    inode: int
    named: str = ""


class Cached(NamedTuple):
    version: str | None  # None: it printed no version, or hung


def cache_path(name: str = HOST) -> Path:
    """`<user cache dir>/extset/<name>`: host-version.json, node-version.json."""
    from installer.ground.userdirs import user_dir

    return user_dir("cache") / name


def identity(resolved: Path) -> Identity | None:
    """The binary's identity; None when it cannot be read (then nothing is cached)."""
    try:
        st = resolved.stat()
    except OSError:
        return None
    named = _named_files(resolved) if st.st_size <= _SCRIPT_MAX else ""
    return Identity(str(resolved), st.st_size, st.st_mtime_ns, st.st_ino, named)


def _named_files(script: Path) -> str:
    """`path:size:mtime:inode` of each program (an executable file) a `#!` script names by
    absolute path; a file it reads or writes (a log, a config) does not count."""
    import os
    import re

    try:
        with script.open("rb") as f:
            text = f.read(_SCRIPT_MAX).decode("utf-8", "replace")
    except OSError:
        return ""
    if not text.startswith("#!"):
        return ""
    _, _, body = text.partition("\n")  # the interpreter line names sh, not pi
    found: list[str] = []
    for path in dict.fromkeys(re.findall(r"(?<![\w$])(/[^\s\"'`$;|&()<>]+)", body)):
        try:
            st = os.stat(path)
        except OSError:
            continue
        if os.path.isfile(path) and os.access(path, os.X_OK):
            found.append(f"{path}:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}")
        if len(found) == _NAMED_MAX:
            break
    return "\n".join(found)


def lookup(ident: Identity | None, now: float | None = None, name: str = HOST) -> Cached | None:
    """The remembered answer for this exact binary, if it is fresh; else None."""
    if ident is None:
        return None
    entry = read_table(cache_path(name), SCHEMA, "hosts").get(ident.path)
    if entry is None or [entry.get(k, "") for k in _FIELDS] != list(ident[1:]):
        return None
    at = entry.get("at")
    now = time.time() if now is None else now
    version = entry.get("version")
    known = isinstance(version, str)
    max_age = MAX_AGE if known else UNKNOWN_MAX_AGE
    if not isinstance(at, (int, float)) or not 0 <= now - at < max_age:
        return None
    return Cached(version if isinstance(version, str) else None)


def remember(ident: Identity | None, version: str | None, name: str = HOST) -> None:
    """Keep the answer for this binary; a cache that cannot be written only costs speed."""
    if ident is None:
        return
    path = cache_path(name)
    hosts = read_table(path, SCHEMA, "hosts")
    hosts[ident.path] = {
        "size": ident.size,
        "mtime_ns": ident.mtime_ns,
        "inode": ident.inode,
        "named": ident.named,
        "version": version,
        "at": time.time(),
    }
    newest = sorted(hosts.items(), key=lambda kv: _at(kv[1]), reverse=True)[:_KEEP]
    write_table(path, SCHEMA, "hosts", dict(newest))


def _at(entry: dict[str, object]) -> float:
    at = entry.get("at")
    return float(at) if isinstance(at, (int, float)) else 0.0
