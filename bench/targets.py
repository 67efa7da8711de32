"""What a symlink costs by the length of its target, on the file system TMPDIR is on.

ext4 keeps a target of under 60 bytes in the link's own inode (a "fast" symlink) and gives a
longer one a data block. ext's links name the set's absolute real path, which under a home
folder is often 60 bytes or more; GNU Stow's are relative and mostly shorter. Reported, no
target: 1,000 `os.symlink` calls per length, in a new folder each round, the lengths in
alternating order round by round (as bench/harness.measure alternates commands), medians.

bench/targets.py [--rounds N] [--lengths 40,59,60,80]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

COUNT = 1000


def make_links(folder: Path, target_length: int) -> float:
    """Seconds to make COUNT links in a new folder, each target `target_length` bytes long."""
    folder.mkdir()
    stem = "/" + "x" * (target_length - 6)  # + a five-digit number: the whole length
    started = time.perf_counter()
    for i in range(COUNT):
        os.symlink(f"{stem}{i:05d}", f"{folder}/l{i}")
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--lengths", default="40,55,59,60,61,80")
    opts = parser.parse_args(argv)
    lengths = [int(n) for n in opts.lengths.split(",")]
    if min(lengths) < 7:
        parser.error("a target is at least 7 bytes here ('/' and a five-digit number)")
    base = Path(tempfile.mkdtemp(prefix="extset-targets-"))
    runs: dict[int, list[float]] = {n: [] for n in lengths}
    try:
        for r in range(opts.rounds):
            for n in lengths if r % 2 == 0 else reversed(lengths):
                runs[n].append(make_links(base / f"{n}-{r}", n))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"== {COUNT} os.symlink calls by target length, in {base.parent}, {opts.rounds} rounds")
    for n in lengths:
        median, low = statistics.median(runs[n]) * 1000, min(runs[n]) * 1000
        print(f"  target of {n:>3} bytes   median {median:6.1f} ms   (min {low:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
