"""What every bench shares: the binaries, a sandboxed HOME, set builders, A/B timing, rows.

The machine these run on is noisy (two cores, other work), so commands are
timed side by side in one run, alternating their order every round, and a
ratio is the median of the per-round ratios: drift in load hits both sides.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SET_DIRS = ("extensions", "skills", "prompts", "themes")
TIMEOUT = 300.0


class BenchError(RuntimeError):
    """A command under test failed; its timing would mean nothing."""


# ---- binaries ---------------------------------------------------------------


# The bench's own venvs (ext as a user installs it; dotbot). $BENCH_CACHE moves them: a
# worktree's .cache may be shared with other checkouts, whose bench would reinstall their
# own tree into the same venv mid-run.
CACHE = Path(os.environ.get("BENCH_CACHE") or REPO / ".cache")
USER_VENV = CACHE / "bench-ext"
# The start-up floor the targets are set against (`python -c "import typer"`): a measuring
# stick beside ext in its venv, as stow and dotbot are; ext itself no longer uses typer.
FLOOR_PACKAGE = "typer>=0.12,<0.30"


def python() -> str:
    """The interpreter ext runs on: the floor (`import typer`) is timed on the same one."""
    if os.environ.get("BENCH_EXT"):
        return sys.executable
    return str(user_install() / "bin" / "python")


def ext() -> str:
    """$BENCH_EXT (another build to compare), else ext installed as a user installs it."""
    if os.environ.get("BENCH_EXT"):
        return os.environ["BENCH_EXT"]
    return str(user_install() / "bin" / "ext")


@functools.cache
def user_install() -> Path:
    """This working tree installed from a wheel into $BENCH_CACHE/bench-ext, as pip installs it.

    Not the dev venv: its editable install adds a path finder (and its imports) to every
    interpreter start, 20-25 ms here, which no user pays and dotbot's venv does not have.
    """
    pip = [str(USER_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    pip.append("--disable-pip-version-check")
    venv_python = str(USER_VENV / "bin" / "python")
    if not (USER_VENV / "bin" / "python").exists():
        print(f"installing ext into {USER_VENV} …", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(USER_VENV)], check=True)
        subprocess.run([*pip, str(REPO), FLOOR_PACKAGE], check=True, capture_output=True)
    # The working tree as it is now; its dependencies stay from the first install, unless
    # the tree now needs one that venv lacks (or the floor is missing).
    subprocess.run([*pip, "--no-deps", "--force-reinstall", str(REPO)], check=True)
    have = subprocess.run([venv_python, "-m", "pip", "check"], capture_output=True, check=False)
    floor = subprocess.run([venv_python, "-c", "import typer"], capture_output=True, check=False)
    if have.returncode or floor.returncode:
        subprocess.run([*pip, str(REPO), FLOOR_PACKAGE], check=True, capture_output=True)
    return USER_VENV


def pi() -> str | None:
    """Today's real pi the project tests against (scripts/setup), else one on PATH."""
    from installer.host.lines import TODAY

    cached = REPO / ".cache" / f"pi-{TODAY.tested}" / "node_modules" / ".bin" / "pi"
    return str(cached) if cached.exists() else shutil.which("pi")


def node_dir() -> Path | None:
    """The folder of the Node scripts/setup installed for today's pi (it needs Node 22)."""
    found = sorted((REPO / ".cache").glob("node-*/node_modules/node-*/bin/node"))
    return found[-1].parent if found else None


# ---- sandbox and sets -------------------------------------------------------


def sandbox_env(root: Path) -> dict[str, str]:
    """An environment whose HOME and XDG dirs live under root, with pi on PATH."""
    home = root / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXT_", "PI_CODING_AGENT"))}
    # A user's ext has its bytecode cached (pip compiles on install); so does the warm-up run here.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # Nor does a user's shell make Python's stdout unbuffered: with it, each line ext prints
    # (1,000 on a fresh install) is a write of its own, 25 ms here.
    env.pop("PYTHONUNBUFFERED", None)
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
    )
    front = [str(Path(found).parent) for found in [pi()] if found is not None]
    front += [str(node) for node in [node_dir()] if node is not None]
    env["PATH"] = os.pathsep.join([*front, env.get("PATH", "")])
    return env


def isolated_agent_dir(env: Mapping[str, str]) -> Path:
    """ext's isolated agent dir for this environment (platformdirs' user data path on Linux)."""
    return Path(env["XDG_DATA_HOME"]) / "extset" / "agent"


def copy_repo_set(dest: Path) -> Path:
    """A copy of the repository's own set: the bundled one, as a user's checkout holds it."""
    dest.mkdir(parents=True)
    shutil.copy2(REPO / "extset.toml", dest / "extset.toml")
    for name in SET_DIRS:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, dest / name, symlinks=True)
    return dest


def build_set(dest: Path, count: int, folder_every: int = 10) -> Path:
    """A set of `count` extensions; every `folder_every`-th is a folder with an index.ts."""
    folder = dest / "extensions"
    folder.mkdir(parents=True)
    (dest / "extset.toml").write_text(f'[set]\nname = "bench-{count}"\nmode = "link"\n')
    body = "export default function (pi) {}\n"
    for i in range(count):
        if folder_every and i % folder_every == folder_every - 1:
            (folder / f"ext{i:05d}").mkdir()
            (folder / f"ext{i:05d}" / "index.ts").write_text(body)
        else:
            (folder / f"ext{i:05d}.ts").write_text(body)
    return dest


_OWN = f"{os.sep}.extset{os.sep}agent{os.sep}"


def count_links(folder: Path) -> int:
    """How many entries of a folder are symlinks to the set's items.

    ext also links its own /ext command (a copy under `<agent>/.extset/agent/`) into every
    agent dir it installs: one link more than stow or dotbot make, and not an item of the set.
    """
    with os.scandir(folder) as it:
        return sum(1 for e in it if e.is_symlink() and _OWN not in os.readlink(e.path))


def in_memory() -> str | None:
    """/dev/shm when it is a tmpfs this user can write in: a fresh install there costs what the
    tool does, without the disk (docs/performance.md, "Fresh installs"); else None."""
    try:
        mounts = Path("/proc/self/mounts").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in mounts.splitlines():
        fields = line.split()
        if fields[1:3] == ["/dev/shm", "tmpfs"] and os.access("/dev/shm", os.W_OK):
            return "/dev/shm"
    return None


def fresh_dir(path: Path, attic: Path) -> None:
    """Empty a folder (a tool's agent dir) so the next run installs from nothing.

    The old one is moved into `attic`, not deleted: right after a thousand unlinks, ext4
    skips each recently freed inode when it allocates a new one (`recently_deleted` in
    perf), and every symlink of the next run paid for that scan, up to 0.8 ms each
    here, depending on which block group the folder sits in. No user's fresh install
    follows a mass delete; the attic is removed when the bench ends.
    """
    attic.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.rename(attic / f"{path.name}-{len(os.listdir(attic))}")
    path.mkdir(parents=True)


# ---- running and timing -----------------------------------------------------


@dataclass(frozen=True)
class Cmd:
    """One command under test, and what to do (untimed) before each run of it."""

    argv: Sequence[str]
    cwd: Path | None = None
    env: Mapping[str, str] | None = None
    prepare: Callable[[], None] | None = None


def run_once(cmd: Cmd) -> float:
    """Run a command once; its wall time in seconds. A non-zero exit is a BenchError."""
    if cmd.prepare is not None:
        cmd.prepare()
    start = time.perf_counter()
    proc = subprocess.run(
        list(cmd.argv),
        cwd=cmd.cwd,
        env=None if cmd.env is None else dict(cmd.env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=TIMEOUT,
        check=False,
    )
    took = time.perf_counter() - start
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace").strip()[-800:]
        raise BenchError(f"{' '.join(cmd.argv)} exited {proc.returncode}: {tail}")
    return took


def check_output(argv: Sequence[str], cwd: Path | None, env: Mapping[str, str]) -> str:
    """Run a set-up command and return its stdout; a failure stops the bench with its stderr."""
    proc = subprocess.run(
        list(argv), cwd=cwd, env=dict(env), capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise BenchError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr[-800:]}")
    return proc.stdout


@dataclass
class Timings:
    """Seconds per command label, one entry per round, in round order."""

    runs: dict[str, list[float]] = field(default_factory=dict)

    def median(self, label: str) -> float:
        return statistics.median(self.runs[label])

    def ratio(self, a: str, b: str) -> float:
        """Median of the per-round ratios a/b (paired, so load drift cancels)."""
        return statistics.median(x / y for x, y in zip(self.runs[a], self.runs[b], strict=True))


def measure(cmds: Mapping[str, Cmd], rounds: int, warmup: int = 1) -> Timings:
    """Run every command once per round, reversing the order every other round.

    The warm-up round fills the page cache and writes bytecode, as a user's earlier runs have.
    """
    labels = list(cmds)
    for _ in range(warmup):
        for label in labels:
            run_once(cmds[label])
    out = Timings({label: [] for label in labels})
    for n in range(rounds):
        for label in labels if n % 2 == 0 else reversed(labels):
            out.runs[label].append(run_once(cmds[label]))
    return out


# ---- reporting --------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of the summary: a measured value against its target."""

    bench: str
    what: str
    value: str
    baseline: str
    result: str
    target: str
    met: bool | None  # None: reported, no target


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def print_timings(title: str, t: Timings) -> None:
    """Each command's median and spread, for the log."""
    print(f"\n== {title}")
    for label, runs in t.runs.items():
        lo, hi = min(runs), max(runs)
        print(f"  {label:<44} median {ms(t.median(label)):>8}   (min {ms(lo)}, max {ms(hi)})")


def ratio_row(bench: str, t: Timings, a: str, b: str, limit: float) -> Row:
    """A row for `a` at most `limit` times `b`."""
    r = t.ratio(a, b)
    return Row(
        bench, a, ms(t.median(a)), f"{b}: {ms(t.median(b))}", f"{r:.2f}x", f"≤ {limit}x", r <= limit
    )


def markdown(rows: Sequence[Row]) -> str:
    """The summary table, as it goes into docs/performance.md."""
    lines = [
        "| bench | command | median | baseline (median) | result | target | met |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        met = "—" if r.met is None else ("yes" if r.met else "**no**")
        cells = (r.bench, f"`{r.what}`", r.value, r.baseline, r.result, r.target, met)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def options(description: str, argv: Sequence[str] | None = None) -> argparse.Namespace:
    """--quick for fewer rounds; --keep to leave the temp dir for a look."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a rough number)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per comparison")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir")
    return parser.parse_args(argv)


def rounds(opts: argparse.Namespace, full: int, quick: int) -> int:
    if opts.rounds:
        return int(opts.rounds)
    return quick if opts.quick else full


# ---- one bench on its own ---------------------------------------------------

Bench = Callable[[Path, argparse.Namespace], list[Row]]


def workdir(keep: bool) -> Path:
    """A fresh temp dir for one run of the benches (kept with --keep)."""
    path = Path(tempfile.mkdtemp(prefix="extset-bench-"))
    if keep:
        print(f"temp dir: {path}")
    return path


def standalone(bench: Bench, description: str) -> None:
    """Run one bench module as a script: its timings, then its rows as a table."""
    opts = options(description)
    tmp = workdir(opts.keep)
    try:
        rows = bench(tmp, opts)
    finally:
        if not opts.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    if rows:  # a bench that only reports (bench/imports.py) has no table
        print()
        print(markdown(rows))
