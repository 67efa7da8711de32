"""1,000 extensions: ext against dotbot, GNU Stow and the Python floor on the same work.

Each tool has its own agent dir holding the same 1,000 links (files linked as
files, folder extensions as one link to the folder): a no-op run re-checks
them; a fresh run makes them all in an empty agent dir. Beside the tools, the
floors: the interpreter alone (`python -c pass`, the same venv's python, which is
what ext's console script runs: site and all, no -S), a readlink loop (the
interpreter, then one readlink of each link compared with its expected target)
and a symlink loop (the interpreter, then the 1,000 os.symlink calls).

Targets: a no-op of one item at most 2x the interpreter; a no-op of 1,000 at most
0.5x dotbot, 0.6x stow and 1.5x the readlink loop; a fresh 1,000 at most 1.0x stow
and 1.5x the symlink loop.

Reported beside the fresh install, no target: the symlink loop making stow's relative
targets (ext4 keeps a link's target of under 60 bytes in its inode, and gives a longer one,
as ext's absolute targets here are, a block of its own), and the same fresh installs in a
tmpfs (`/dev/shm`), where no disk is: what each tool costs, apart from the file system.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from harness import (
    CACHE,
    BenchError,
    Cmd,
    Row,
    Timings,
    build_set,
    check_output,
    count_links,
    ext,
    fresh_dir,
    in_memory,
    measure,
    ms,
    print_timings,
    python,
    ratio_row,
    rounds,
    sandbox_env,
    standalone,
)

COUNT = 1000
INTERPRETER = "python -c pass"
# What every ext command but a replay loads before a module of its own: re, pathlib and json
# (typing only for the type checker). Reported, no target: it says how much of the 2x is left.
STDLIB = "python -c 'import re, pathlib, json'"
ONE = "ext install --yes (no-op, 1 item)"
NOOP = "ext install --yes (no-op, 1k)"
NOOP_FLOOR = "python, 1,000 readlinks checked (no tool)"
# The same no-ops with the replay off (EXT_NO_REPLAY=1): the whole check, every run. Reported,
# no target: a no-op is replayed from its second run while nothing it read has changed.
ONE_FULL = "ext install --yes (no-op, 1 item, replay off)"
NOOP_FULL = "ext install --yes (no-op, 1k, replay off)"
FRESH = "ext install --yes (fresh, 1k)"
STOW_FRESH = "stow (fresh, 1k)"
FRESH_FLOOR = "python, 1,000 os.symlink calls (no tool)"
SHORT_FLOOR = "python, 1,000 os.symlink calls, relative targets (no tool)"
IN_MEMORY = " (tmpfs)"

# The floors: what any Python tool pays for the same work, with nothing of its own.
READLINK_LOOP = """\
import os, sys
src, dest = sys.argv[1], sys.argv[2]
wrong = 0
for name in os.listdir(src):
    try:
        wrong += os.readlink(f"{dest}/{name}") != f"{src}/{name}"
    except OSError:
        wrong += 1
sys.exit(1 if wrong else 0)
"""
SYMLINK_LOOP = """\
import os, sys
src, dest = sys.argv[1], sys.argv[2]
for name in os.listdir(src):
    os.symlink(f"{src}/{name}", f"{dest}/{name}")
"""
SHORT_LOOP = """\
import os, sys
src, dest = sys.argv[1], sys.argv[2]
rel = os.path.relpath(src, dest)
for name in os.listdir(src):
    os.symlink(f"{rel}/{name}", f"{dest}/{name}")
"""
BENCH_VENV = CACHE / "bench-venv"


def dotbot() -> str:
    """dotbot from the package index, in a venv cached under $BENCH_CACHE/bench-venv."""
    binary = BENCH_VENV / "bin" / "dotbot"
    if not binary.exists():
        print(f"installing dotbot into {BENCH_VENV} …", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        pip = [str(BENCH_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", "dotbot"]
        subprocess.run(pip, check=True)
    return str(binary)


def stow() -> str:
    """Debian's GNU Stow; installed with apt-get when missing and we are root."""
    found = shutil.which("stow")
    if found is None and os.geteuid() == 0:
        print("installing stow with apt-get …", file=sys.stderr)
        apt = ["apt-get", "install", "-y", "-q", "stow"]
        if subprocess.run(apt, check=False, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], check=True, capture_output=True)
            subprocess.run(apt, check=True, capture_output=True)
        found = shutil.which("stow")
    if found is None:
        raise BenchError("GNU Stow is not installed: apt-get install stow")
    return found


def _stow(sets: Path, target: Path) -> list[str]:
    """stow of sets/set1k into target, which must hold a real extensions/: in an empty target
    stow would fold the folder into one link."""
    return [stow(), "-d", str(sets), "-t", str(target), "--ignore=extset\\.toml", "set1k"]


def dotbot_config(path: Path, agent: Path) -> Path:
    """A `link:` glob over the set's extensions and a `clean:` of the folder (JSON is YAML)."""
    config = [
        {"defaults": {"link": {"create": True}}},
        {"clean": [str(agent / "extensions")]},
        {"link": {f"{agent / 'extensions'}/": {"glob": True, "path": "extensions/*"}}},
    ]
    path.write_text(json.dumps(config, indent=2))
    return path


def expect_links(folder: Path, count: int, tool: str) -> None:
    found = count_links(folder)
    if found != count:
        raise BenchError(f"{tool} made {found} links in {folder}, not {count}")


def expect_replayed(env: dict[str, str], *cmds: Cmd) -> None:
    """The no-op rows time a replay: stop the bench if a run of these would not be one."""
    for cmd in cmds:
        _replayed(cmd, env)


def _replayed(cmd: Cmd, env: dict[str, str]) -> None:
    said = subprocess.run(
        list(cmd.argv), cwd=cmd.cwd, env={**env, "EXT_REPLAY_DEBUG": "1"}, capture_output=True,
        text=True, check=False,
    ).stderr  # fmt: skip
    if "ext: replay: replayed" not in said:
        raise BenchError(f"{' '.join(cmd.argv)} was not replayed: {said.strip()}")


def _floor_row(t: Timings, floor: str, interpreter: str, name: str = "1 no-op") -> Row:
    """A floor (or a run with the replay off) against a baseline: reported, no target."""
    r = f"{t.ratio(floor, interpreter):.2f}x"
    return Row(
        name,
        floor,
        ms(t.median(floor)),
        f"{interpreter}: {ms(t.median(interpreter))}",
        r,
        "—",
        None,
    )


def bench(tmp: Path, opts: argparse.Namespace) -> list[Row]:
    memory = in_memory()
    if memory is None:
        print("no tmpfs at /dev/shm: the fresh installs are timed on the disk alone")
        return _bench(tmp, None, opts)
    shm = Path(tempfile.mkdtemp(prefix="extset-bench-", dir=memory))
    try:
        # Made first: its manifest has settled (installer.ground.manifest_cache) when it is timed.
        build_set(shm / "sets" / "set1k", COUNT)
        return _bench(tmp, shm, opts)
    finally:
        if opts.keep:
            print(f"tmpfs dir: {shm}")
        else:
            shutil.rmtree(shm, ignore_errors=True)


def _bench(tmp: Path, shm: Path | None, opts: argparse.Namespace) -> list[Row]:
    env = sandbox_env(tmp)
    sets = tmp / "sets"
    set_dir = build_set(sets / "set1k", COUNT)
    one_dir = build_set(sets / "set1", 1)
    n = rounds(opts, full=15, quick=4)

    # Every tool's target sits in tmp/agents/: ext4 puts a new folder's entries in the block
    # group of its parent, and groups differ a lot in what a new inode costs (see fresh_dir).
    agent = tmp / "agents" / "ext"
    agent.mkdir(parents=True)
    ext_cmd = Cmd([ext(), "--agent-dir", str(agent), "install", "--yes"], set_dir, env)
    check_output(ext_cmd.argv, set_dir, env)
    expect_links(agent / "extensions", COUNT, "ext")

    one_agent = tmp / "agents" / "ext1"
    one_agent.mkdir(parents=True)
    one_cmd = Cmd([ext(), "--agent-dir", str(one_agent), "install", "--yes"], one_dir, env)
    check_output(one_cmd.argv, one_dir, env)
    expect_links(one_agent / "extensions", 1, "ext")

    dotbot_agent = tmp / "agents" / "dotbot"
    dotbot_agent.mkdir(parents=True)
    conf = dotbot_config(tmp / "dotbot.conf.yaml", dotbot_agent)
    dotbot_cmd = Cmd([dotbot(), "-d", str(set_dir), "-c", str(conf)], set_dir, env)
    check_output(dotbot_cmd.argv, set_dir, env)
    expect_links(dotbot_agent / "extensions", COUNT, "dotbot")

    stow_agent = tmp / "agents" / "stow"
    (stow_agent / "extensions").mkdir(parents=True)
    stow_argv = _stow(sets, stow_agent)
    check_output(stow_argv, sets, env)
    expect_links(stow_agent / "extensions", COUNT, "stow")

    # ext's links name the set's real path; the loop checks each against the same.
    real_src = os.path.realpath(set_dir / "extensions")
    loop_argv = [python(), "-c", READLINK_LOOP, real_src, str(agent / "extensions")]
    check_output(loop_argv, set_dir, env)  # exits 1 unless every link is as expected

    noop = {
        INTERPRETER: Cmd([python(), "-c", "pass"], set_dir, env),
        STDLIB: Cmd([python(), "-c", "import re, pathlib, json"], set_dir, env),
        ONE: one_cmd,
        NOOP: ext_cmd,
        ONE_FULL: Cmd(one_cmd.argv, one_dir, {**env, "EXT_NO_REPLAY": "1"}),
        NOOP_FULL: Cmd(ext_cmd.argv, set_dir, {**env, "EXT_NO_REPLAY": "1"}),
        NOOP_FLOOR: Cmd(loop_argv, set_dir, env),
        "dotbot (no-op, 1k)": dotbot_cmd,
        "stow (no-op, 1k)": Cmd(stow_argv, sets, env),
    }
    t = measure(noop, n)
    print_timings("already linked: a no-op, against the tools and the floors", t)
    expect_replayed(env, one_cmd, ext_cmd)
    rows = [
        ratio_row("1 no-op", t, ONE, INTERPRETER, 2.0),
        _floor_row(t, ONE_FULL, INTERPRETER),
        _floor_row(t, STDLIB, INTERPRETER),
        ratio_row("1k no-op", t, NOOP, "dotbot (no-op, 1k)", 0.5),
        ratio_row("1k no-op", t, NOOP, "stow (no-op, 1k)", 0.6),
        ratio_row("1k no-op", t, NOOP, NOOP_FLOOR, 1.5),
        _floor_row(t, NOOP_FULL, NOOP_FLOOR, "1k no-op"),
        _floor_row(t, NOOP_FULL, "dotbot (no-op, 1k)", "1k no-op"),
    ]

    t = _fresh(tmp, sets, env, n, short=True)
    print_timings("1,000 extensions into an empty agent dir: a fresh install", t)
    rows.append(ratio_row("1k fresh", t, FRESH, STOW_FRESH, 1.0))
    rows.append(ratio_row("1k fresh", t, FRESH, FRESH_FLOOR, 1.5))
    rows.append(_floor_row(t, SHORT_FLOOR, FRESH_FLOOR, "1k fresh"))
    if shm is not None:
        t = _fresh(shm, shm / "sets", sandbox_env(shm), n, IN_MEMORY)
        print_timings("the same where no disk is (tmpfs)", t)
        for floor in (STOW_FRESH, FRESH_FLOOR):
            rows.append(_floor_row(t, FRESH + IN_MEMORY, floor + IN_MEMORY, "1k fresh"))
    return rows


def _fresh(
    root: Path, sets: Path, env: dict[str, str], n: int, where: str = "", short: bool = False
) -> Timings:
    """ext, stow and the symlink loop (`short`: and the loop making stow's relative targets),
    side by side, each making the 1,000 links of sets/set1k in an empty folder under root."""
    set_dir = sets / "set1k"
    attic = root / "attic"
    agent = root / "agents" / "ext"
    stow_agent = root / "agents" / "stow"
    floors = {FRESH_FLOOR: (SYMLINK_LOOP, root / "agents" / "floor" / "extensions")}
    if short:
        floors[SHORT_FLOOR] = (SHORT_LOOP, root / "agents" / "short" / "extensions")

    def empty(path: Path) -> Callable[[], None]:
        return lambda: fresh_dir(path, attic)

    ext_argv = [ext(), "--agent-dir", str(agent), "install", "--yes"]
    stowed = stow_agent / "extensions"
    cmds = {
        FRESH + where: Cmd(ext_argv, set_dir, env, empty(agent)),
        STOW_FRESH + where: Cmd(_stow(sets, stow_agent), sets, env, empty(stowed)),
    }
    for label, (loop, folder) in floors.items():
        argv = [python(), "-c", loop, str(set_dir / "extensions"), str(folder)]
        cmds[label + where] = Cmd(argv, sets, env, empty(folder))
    t = measure(cmds, n)
    expect_links(agent / "extensions", COUNT, "ext")
    expect_links(stow_agent / "extensions", COUNT, "stow")
    for label, (_, folder) in floors.items():
        expect_links(folder, COUNT, label)
    return t


if __name__ == "__main__":
    standalone(bench, __doc__ or "")
