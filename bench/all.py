"""Run every bench, then print one summary table (what docs/performance.md shows).

bench/run [--quick] [--only startup,peers,scale,launch,hosts] [--rounds N] [--keep]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import time
import traceback
from collections.abc import Sequence

import hosts
import launch
import peers
import scale
import startup
from harness import REPO, Bench, BenchError, Row, markdown, workdir

BENCHES: dict[str, Bench] = {
    "startup": startup.bench,
    "peers": peers.bench,
    "scale": scale.bench,
    "launch": launch.bench,
    "hosts": hosts.bench,
}


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Run ext's benches and print the summary.")
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a rough number)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per comparison")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir")
    parser.add_argument(
        "--only", default=",".join(BENCHES), help=f"comma-separated, of: {', '.join(BENCHES)}"
    )
    opts = parser.parse_args(argv)
    unknown = set(opts.only.split(",")) - set(BENCHES)
    if unknown:
        parser.error(f"unknown bench: {', '.join(sorted(unknown))}")
    return opts


def machine() -> str:
    """One line on where and when: the numbers only mean something next to it."""
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{time.strftime('%Y-%m-%d %H:%M')}, commit {head or '?'} (+ working tree), "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load {load}"
    )


def main() -> int:
    opts = parse()
    tmp = workdir(opts.keep)
    rows: list[Row] = []
    failed = []
    started = time.perf_counter()
    try:
        for name in opts.only.split(","):
            try:
                rows.extend(BENCHES[name](tmp / name, opts))
            except (BenchError, RuntimeError, OSError) as exc:
                if not isinstance(exc, BenchError):  # a bug in the bench: show where
                    traceback.print_exc()
                print(f"\n!! {name}: {exc}", file=sys.stderr)
                failed.append(name)
    finally:
        if not opts.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    took = time.perf_counter() - started
    print(f"\n== summary ({machine()}; {took:.0f} s{', --quick' if opts.quick else ''})\n")
    print(markdown(rows))
    met = sum(1 for r in rows if r.met)
    targets = sum(1 for r in rows if r.met is not None)
    also = f"; failed: {', '.join(failed)}" if failed else ""
    print(f"\n{met} of {targets} targets met{also}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
