"""Two builds of ext side by side: a fresh install of 1,000 items by each, where no disk is.

What a change costs a fresh install is smaller than what the disk adds to it on this machine
(docs/performance.md, "Fresh installs"), so the two builds run on tmpfs (`/dev/shm`), each a
git revision checked out into a temporary worktree and run from the same interpreter with its
tree first on `PYTHONPATH`, alternating round by round (the working tree's package is copied
there too). Reported, no target: the ratio says what the newer build costs beside the older.

bench/builds.py [--rounds N] [--count N] OLD [NEW]    (NEW defaults to the working tree)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import (
    REPO,
    Cmd,
    build_set,
    fresh_dir,
    in_memory,
    measure,
    print_timings,
    python,
    sandbox_env,
)

ENTRY = "import sys; from installer.cli.entry import main; sys.argv[0] = 'ext'; main()"


def worktree(rev: str, where: Path) -> Path:
    """`rev` checked out (detached) at `where`, a folder of its own."""
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", "-f", str(where), rev],
        check=True,
        capture_output=True,
    )
    return where


def working_tree(where: Path) -> Path:
    """The working tree's package copied to `where`: beside the old worktree, on the same
    file system. Run in place from the disk, its ~80 module files cost it ~1.5 ms a run
    beside a worktree on tmpfs (an A/B of two revisions, both on tmpfs, gave 0.99x where the
    same pair gave 1.01x with the newer in place)."""
    shutil.copytree(
        REPO / "installer", where / "installer", ignore=shutil.ignore_patterns("__pycache__")
    )
    return where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="a git revision: the build to compare against")
    parser.add_argument("new", nargs="?", help="a git revision (default: the working tree)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--count", type=int, default=1000)
    opts = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ext-builds-", dir=in_memory()) as tmp:
        base = Path(tmp)
        trees: dict[str, Path] = {}
        try:  # a worktree made is removed below, whatever fails after it
            trees["old"] = worktree(opts.old, base / "old")
            new = worktree(opts.new, base / "new") if opts.new else working_tree(base / "new")
            trees["new"] = new
            env = {k: v for k, v in sandbox_env(base).items() if k != "PYTHONUNBUFFERED"}
            set_dir = build_set(base / "set", opts.count)
            cmds = {}
            for name, tree in trees.items():
                agent = base / f"agent-{name}"

                def empty(agent: Path = agent) -> None:
                    fresh_dir(agent, base / "attic")

                argv = [python(), "-c", ENTRY, "--agent-dir", str(agent), "install", "--yes"]
                rev = opts.old if name == "old" else opts.new or "the working tree"
                cmds[f"{name} ({rev})"] = Cmd(
                    argv, set_dir, {**env, "PYTHONPATH": str(tree)}, empty
                )
            timings = measure(cmds, opts.rounds)
        finally:
            for name in ("old", "new"):
                if name in trees and (name == "old" or opts.new):
                    subprocess.run(
                        ["git", "-C", str(REPO), "worktree", "remove", "--force", str(trees[name])],
                        check=False,
                        capture_output=True,
                    )
    title = f"a fresh install of {opts.count} items on tmpfs, {opts.rounds} rounds"
    print_timings(title, timings)
    old, new = cmds
    print(f"\n{new} / {old}: {timings.ratio(new, old):.2f}x (median of the per-round ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
