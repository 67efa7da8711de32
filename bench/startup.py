"""Start-up: ext's everyday commands against the floor the targets were set with.

`python -c "import typer"` on the same interpreter is the floor (typer was ext's CLI
framework when the targets were set; ext now uses click, lighter, and the floor stays put so
that the targets do not move); `ext --version`,
`ext env`, `ext list` and a no-op `ext install --yes` on the bundled set should
cost at most 1.2x that. The same holds with pi behind a shell wrapper (as a version
manager's shim puts it): no package.json beside it, so its version is a Node start,
paid once per pi upgrade and then remembered.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from harness import (
    Cmd,
    Row,
    check_output,
    copy_repo_set,
    ext,
    measure,
    pi,
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


def wrapped_pi_env(tmp: Path, env: dict[str, str]) -> dict[str, str]:
    """`env` with a shell script named pi first on PATH, which execs the real pi."""
    real = pi()
    if real is None:
        raise RuntimeError("no pi to wrap: run scripts/setup, or put pi on PATH")
    wrapper = tmp / "wrapper-bin" / "pi"
    wrapper.parent.mkdir(parents=True)
    wrapper.write_text(f'#!/bin/sh\nexec "{os.path.realpath(real)}" "$@"\n')
    wrapper.chmod(0o755)
    return {**env, "PATH": os.pathsep.join((str(wrapper.parent), env.get("PATH", "")))}


def bench(tmp: Path, opts: argparse.Namespace) -> list[Row]:
    set_dir, env = installed_bundled_set(tmp)
    wrapped = wrapped_pi_env(tmp, env)
    # The wrapped rows time a remembered version, not a remembered hang. On a loaded machine
    # a Node start can outlast a command's 3 s; doctor asks as a person would, waiting 15 s.
    check_output([ext(), "doctor", "--check", "host"], set_dir, wrapped)
    said = check_output([ext(), "--version"], set_dir, wrapped)
    if "version unknown" in said:
        raise RuntimeError(f"ext could not read pi's version through the wrapper: {said.strip()}")
    cmds = {
        FLOOR: Cmd([python(), "-c", "import typer"], set_dir, env),
        "ext --version": Cmd([ext(), "--version"], set_dir, env),
        "ext env": Cmd([ext(), "env"], set_dir, env),
        "ext list": Cmd([ext(), "list"], set_dir, env),
        "ext install --yes (no-op)": Cmd([ext(), "install", "--yes"], set_dir, env),
        "ext --version (pi wrapped)": Cmd([ext(), "--version"], set_dir, wrapped),
        "ext install --yes (no-op, pi wrapped)": Cmd([ext(), "install", "--yes"], set_dir, wrapped),
    }
    t = measure(cmds, rounds(opts, full=15, quick=5))
    print_timings("start-up, bundled set, vs the framework floor", t)
    return [ratio_row("start-up", t, label, FLOOR, LIMIT) for label in cmds if label != FLOOR]


if __name__ == "__main__":
    standalone(bench, __doc__ or "")
