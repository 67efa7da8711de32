"""`python -m installer.updates refresh ...`: the detached refresh of the update cache."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

LIFETIME_SECONDS = 60  # every fetch has its own 3 s deadline; this bounds the whole process


def _bound_lifetime(seconds: int) -> None:
    """End this detached process after `seconds`, whatever it is waiting on (SIGALRM)."""
    import signal

    if hasattr(signal, "alarm"):
        signal.alarm(seconds)  # default action: terminate


_held: list[int] = []  # the refresh lock's descriptor, held until the process ends


def _only_refresh(cache: Path | None) -> bool:
    """Take the refresh lock beside the cache (flock, released at exit); False if it is held."""
    import os

    try:
        import fcntl
    except ImportError:  # no flock here: nothing to serialise with
        return True
    from installer.updates.paths import default_cache_path

    path = (cache or default_cache_path()).with_suffix(".refresh-lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
        fd = os.open(path, flags, 0o600)
    except OSError:
        return True  # cannot lock: refreshing twice is harmless, never refreshing is not
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _held.append(fd)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the refresh arguments and run it; exit 0 silently whatever happens."""
    parser = argparse.ArgumentParser(prog="python -m installer.updates")
    sub = parser.add_subparsers(dest="verb", required=True)
    cmd = sub.add_parser("refresh", help="check now and update the cache")
    cmd.add_argument("--cache", type=Path)
    cmd.add_argument("--set", dest="set_dir", type=Path)
    cmd.add_argument("--host-command", default="pi")
    cmd.add_argument("--host-package")
    cmd.add_argument("--host-version")
    cmd.add_argument("--host-path", type=Path)
    cmd.add_argument("--host-tested")
    cmd.add_argument("--lifetime", type=int, default=LIFETIME_SECONDS, help="0: unbounded")
    args = parser.parse_args(argv)
    if args.lifetime > 0:
        _bound_lifetime(args.lifetime)
    if not _only_refresh(args.cache):
        return 0  # another refresh is at work: one at a time
    try:
        from installer.updates.check import HostFacts
        from installer.updates.notice import refresh

        host = None
        if args.host_package or args.host_version or args.host_path:
            host = HostFacts(
                args.host_package,
                args.host_version,
                args.host_path,
                args.host_command,
                args.host_tested,
            )
        refresh(host=host, set_dir=args.set_dir, cache_path=args.cache)
    except Exception:  # detached, with nowhere to report: the next refresh tries again
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
