"""Where a fresh install of 1,000 items spends its time, before and after its first link.

The modules a fresh install loads are read from one run under `python -X importtime`; then,
side by side in one run: the interpreter alone (`python -c pass`), the same interpreter
importing the standard library's share of those modules, importing all of them (ext's too),
and the fresh install itself. The differences are what each layer costs: the standard
library, ext's own modules, and the work (plan, display, journal, the links). Reported, no
target: it says how much of the fresh install's target is left to ext's own work.

bench/imports.py [--quick] [--rounds N] [--keep]
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

from harness import (
    Cmd,
    Row,
    build_set,
    check_output,
    ext,
    fresh_dir,
    measure,
    ms,
    print_timings,
    python,
    rounds,
    sandbox_env,
    standalone,
)

COUNT = 1000
INTERPRETER = "python -c pass"
STDLIB = "python: import the standard library a fresh install loads"
ALL = "python: import every module a fresh install loads"
FRESH = "ext install --yes (fresh, 1k)"
_ROW = re.compile(r"import time:\s+\d+ \|\s+\d+ \|\s*(\S+)")


def loaded(argv: list[str], cwd: Path, env: dict[str, str]) -> list[str]:
    """The modules a run imports, in the order it imports them (`-X importtime`)."""
    run = [python(), "-X", "importtime", *argv]
    done = subprocess.run(run, cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return [m[1] for m in map(_ROW.match, done.stderr.splitlines()) if m]


def importing(modules: list[str]) -> list[str]:
    """A python that imports these modules (`-X importtime` lists the failed tries too:
    `sitecustomize`, another platform's `nt`)."""
    code = (
        f"import importlib\nfor m in {modules!r}:\n"
        "    try:\n        importlib.import_module(m)\n    except ImportError:\n        pass\n"
    )
    return [python(), "-c", code]


def bench(tmp: Path, opts: argparse.Namespace) -> list[Row]:
    env = sandbox_env(tmp)
    set_dir = build_set(tmp / "sets" / "set1k", COUNT)
    agent = tmp / "agents" / "ext"
    agent.mkdir(parents=True)
    install = [ext(), "--agent-dir", str(agent), "install", "--yes"]
    check_output(install, set_dir, env)  # the caches a user's earlier runs fill (manifest)
    fresh_dir(agent, tmp / "attic")
    modules = loaded(install, set_dir, env)
    ours = [m for m in modules if m.split(".")[0] == "installer"]
    stdlib = [m for m in modules if m not in ours]

    def empty_agent() -> None:
        fresh_dir(agent, tmp / "attic")

    cmds = {
        INTERPRETER: Cmd([python(), "-c", "pass"], set_dir, env),
        STDLIB: Cmd(importing(stdlib), set_dir, env),
        ALL: Cmd(importing(modules), set_dir, env),
        FRESH: Cmd(install, set_dir, env, empty_agent),
    }
    t = measure(cmds, rounds(opts, full=20, quick=5))
    print_timings("a fresh install of 1,000 items, layer by layer", t)
    median = {name: t.median(name) for name in cmds}
    layers = [
        ("the interpreter", median[INTERPRETER]),
        (f"the standard library ({len(stdlib)} modules)", median[STDLIB] - median[INTERPRETER]),
        (f"ext's modules ({len(ours)})", median[ALL] - median[STDLIB]),
        ("the work: plan, display, journal, 1,000 links", median[FRESH] - median[ALL]),
    ]
    print()
    for what, seconds in layers:
        print(f"  {what:<48} {ms(seconds):>8}   {seconds / median[FRESH]:5.0%}")
    return []


if __name__ == "__main__":
    standalone(bench, __doc__ or "")
