"""`python -m installer.updates refresh ...`: the detached refresh of the update cache."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


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
    args = parser.parse_args(argv)
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
