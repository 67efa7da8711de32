"""kill -9 a 3,000-item `ext install` at random points, many times (not a test).

    .venv/bin/python bench/kill_loop.py [--seeds 20] [--size 3000]

Each round builds a set of SIZE extensions and an agent dir where many are in the way, stale
or wrong, runs `ext install --yes` in a subprocess that SIGKILLs itself at a random write
(before or after it), then checks that the next run finishes the job and says it was
interrupted, that a third run plans nothing, and that no file of the user's was lost. The
suite runs three rounds of 1,000 items (tests/fs/test_faults.py); this runs as many as asked.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fs.test_faults import big, converges, killed_at


def one_round(seed: int, size: int) -> str:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        set_root, agent, mine = big(base, size, rng)
        nth = rng.randrange(1, int(size * 1.1))
        when = rng.choice(("before", "after"))
        code = killed_at(base, set_root, agent, nth, when)
        converges(base, set_root, agent, mine)
        how = "killed" if code == -signal.SIGKILL else "finished first"
        return f"seed {seed:>3}: {how} at write {nth} ({when}); {len(mine)} files of yours kept"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--size", type=int, default=3000)
    args = parser.parse_args()
    start = time.monotonic()
    for seed in range(1, args.seeds + 1):
        print(one_round(seed, args.size), flush=True)
    took = time.monotonic() - start
    print(f"{args.seeds} crash points, {args.size} items each: converged every time ({took:.0f} s)")


if __name__ == "__main__":
    main()
