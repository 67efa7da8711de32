"""Start-up: ext's everyday commands against the floor of its CLI framework.

`python -c "import typer"` on the same interpreter is the floor; `ext --version`,
`ext env`, `ext list` and a no-op `ext install --yes` on the bundled set should
cost at most 1.2x that.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from harness import (
    Cmd,
    Row,
    check_output,
    copy_repo_set,
    ext,
    measure,
    print_timings,
    python,
    ratio_row,
    rounds,
    sandbox_env,
    standalone,
)

FLOOR = 'python -c "import typer"'
LIMIT = 1.2


def installed_bundled_set(tmp: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the repo's set, installed once into a temp isolated agent dir; its env."""
    env = sandbox_env(tmp)
    set_dir = copy_repo_set(tmp / "set")
    check_output([ext(), "install", "--yes"], set_dir, env)
    plan = json.loads(check_output([ext(), "--json", "install", "--dry-run"], set_dir, env))
    if plan["changed"]:
        raise RuntimeError(f"a second install still plans changes: {plan['actions']}")
    return set_dir, env


def bench(tmp: Path, opts: argparse.Namespace) -> list[Row]:
    set_dir, env = installed_bundled_set(tmp)
    cmds = {
        FLOOR: Cmd([python(), "-c", "import typer"], set_dir, env),
        "ext --version": Cmd([ext(), "--version"], set_dir, env),
        "ext env": Cmd([ext(), "env"], set_dir, env),
        "ext list": Cmd([ext(), "list"], set_dir, env),
        "ext install --yes (no-op)": Cmd([ext(), "install", "--yes"], set_dir, env),
    }
    t = measure(cmds, rounds(opts, full=15, quick=5))
    print_timings("start-up, bundled set, vs the framework floor", t)
    return [ratio_row("start-up", t, label, FLOOR, LIMIT) for label in cmds if label != FLOOR]


if __name__ == "__main__":
    standalone(bench, __doc__ or "")
