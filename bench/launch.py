"""`ext launch -- --version` against `pi --version`: ext may add at most 10 %.

pi itself takes well over a second to start (Node loads its whole bundle), so
this is the one place where ext's own start-up is a small share.
"""

from __future__ import annotations

import argparse
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
    ratio_row,
    rounds,
    standalone,
)
from startup import installed_bundled_set

LIMIT = 1.10


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
    added = t.median("ext launch -- --version") - t.median("pi --version")
    print(f"  ext adds {ms(added)} to pi's median (pi's own start varies by more than that)")
    row = ratio_row("launch", t, "ext launch -- --version", "pi --version", LIMIT)
    return [row]


if __name__ == "__main__":
    standalone(bench, __doc__ or "")
