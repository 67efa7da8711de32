"""`ext launch -- --version` against `pi --version`: what ext adds to pi's start, in ms.

The target was 1.1x pi when pi 0.73 took over a second to start. pi 1.6 starts in a
quarter to a third of a second, and a tenth of that is less than a Python program that
imports pathlib and json starts in (the console script pip writes imports re
before ext's first line): so the target is the time ext adds, at most 60 ms over pi,
the median of the per-round differences (paired, as the ratios are). The ratio is
printed beside it.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from harness import (
    BenchError,
    Cmd,
    Row,
    ext,
    measure,
    ms,
    pi,
    print_timings,
    rounds,
    standalone,
)
from startup import installed_bundled_set

ADDED_MS = 60


def bench(tmp: Path, opts: argparse.Namespace) -> list[Row]:
    binary = pi()
    if binary is None:
        raise BenchError("pi is not installed (run scripts/setup, or put pi on PATH)")
    set_dir, env = installed_bundled_set(tmp)
    cmds = {
        "ext launch -- --version": Cmd([ext(), "launch", "--", "--version"], set_dir, env),
        "pi --version": Cmd([binary, "--version"], set_dir, env),
    }
    t = measure(cmds, rounds(opts, full=15, quick=3))
    print_timings("ext launch vs pi, both printing pi's version", t)
    a, b = "ext launch -- --version", "pi --version"
    added = statistics.median(x - y for x, y in zip(t.runs[a], t.runs[b], strict=True))
    print(f"  ext adds {ms(added)} to pi's start (median of the per-round differences)")
    ratio = f"{t.ratio(a, b):.2f}x pi"
    baseline = f"{b}: {ms(t.median(b))}"
    met = added * 1000 <= ADDED_MS
    return [
        Row(
            "launch",
            a,
            ms(t.median(a)),
            baseline,
            f"+{ms(added)} ({ratio})",
            f"≤ +{ADDED_MS} ms",
            met,
        )
    ]


if __name__ == "__main__":
    standalone(bench, __doc__ or "")
