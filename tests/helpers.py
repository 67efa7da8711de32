"""Helpers shared by the tests: trees on disk, contexts, and literal sets and agent states."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from installer.ground.context import Context, Env, resolve
from installer.links.scan import AgentState, Entry
from installer.sets.resources import FOLDER, Resource


def build_tree(root: Path, spec: dict[str, str | bytes | Path | None]) -> Path:
    """Create files under root: str/bytes are contents, a Path makes a symlink, None a folder."""
    for rel, value in spec.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if value is None:
            path.mkdir(parents=True, exist_ok=True)
        elif isinstance(value, Path):
            os.symlink(value, path)
        elif isinstance(value, bytes):
            path.write_bytes(value)
        else:
            path.write_text(value)
    return root


def snapshot(root: Path) -> dict[str, tuple[str, str]]:
    """Every entry under root as (kind, content-or-link-target), links not followed."""
    out: dict[str, tuple[str, str]] = {}
    if not root.exists() and not root.is_symlink():
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                out[rel] = ("dir", "")
            else:
                out[rel] = ("file", path.read_bytes().hex())
    return out


def yes(plan: object, diffs: tuple[str, ...]) -> None:
    """Confirm every plan, as --yes does (the `confirm` argument of the command functions)."""


@contextlib.contextmanager
def time_zone(name: str) -> Iterator[None]:
    """The process in the time zone `name` (TZ, and the C library told), put back after."""
    was = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if was is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = was
        time.tzset()


AT = datetime(2026, 11, 29, 10, 15, 0)


class Clock(Env):
    """An Env whose clock is fixed (at `at`), so backup names are known in advance."""

    def __init__(self, at: datetime | None = AT, **env: Any) -> None:
        super().__init__(**env)
        self.at = at

    def now(self) -> datetime:
        return self.at if self.at is not None else super().now()


def context(set_root: Path, agent: Path, at: datetime | None = AT) -> Context:
    """The set and agent dir resolved as ext would from the set's parent, at a fixed clock."""
    return resolve(Clock(environ=dict(os.environ), cwd=set_root.parent, at=at), set_root, agent)


# Literal sets and agent states for the pure planner (no disk): a set lives at /s.


def resource(kind: str, filename: str, layout: str = "file", source: str = "") -> Resource:
    """An item of the set at /s: `notify.ts` is `notify`, a folder keeps its name."""
    name = filename.rpartition(".")[0] if layout == "file" else filename
    source = source or f"/s/{FOLDER[kind]}/{filename}"
    return Resource(kind, name, filename, layout, source, source)


def agent_state(entries: dict[str, Entry], extra: tuple[str, ...] = ()) -> AgentState:
    """An AgentState of /agent whose folder listings hold the entries' names, plus `extra`."""
    names: dict[str, set[str]] = {}
    for path in (*entries, *extra):
        folder, _, name = path.rpartition("/")
        names.setdefault(folder, set()).add(name)
    return AgentState(Path("/agent"), entries, {k: frozenset(v) for k, v in names.items()})


# A set with one item of every kind and layout: a file in .ts and in .js, a folder, a skill,
# a prompt and a theme.
TOOLS_SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/notify.ts": "export default function notify() {}\n",
    "extensions/timer.js": "module.exports = function timer() {}\n",
    "extensions/gamma/index.ts": "export default function gamma() {}\n",
    "skills/review/SKILL.md": "---\ndescription: reviews a change\n---\n# review\n",
    "prompts/fix.md": "fix it\n",
    "themes/dark.json": "{}\n",
}


def set_links(agent: Path) -> dict[str, str]:
    """Every symlink of the set under an agent dir, with its target: ext's own agent files
    (`/ext`, the session recorder) link into `.extset/` and are left out."""
    own = str(agent / ".extset")
    return {
        k: v for k, (kind, v) in snapshot(agent).items() if kind == "link" and not v.startswith(own)
    }


def remove_deep(root: Path) -> None:
    """Remove a tree without recursion: shutil.rmtree (and so pytest's own cleanup) recurses per
    level, and a thousand-deep tree left behind would crash a later session's cleanup. Each
    step names an entry of the folder open at hand, so no call resolves a thousand-part path
    (whole paths made a thousand-deep tree's removal take 3 s), and each folder is listed
    once."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    way: list[str] = []  # the names from root down to the folder open in fd
    left: list[list[str]] = []  # for each folder on the way (and fd's), its folders to remove
    fd = os.open(root, flags)
    try:
        while True:
            folders = []
            with os.scandir(fd) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(entry.name)
                    else:
                        os.unlink(entry.name, dir_fd=fd)
            left.append(folders)
            while not left[-1] and way:  # fd's folder is empty: up, and remove it
                left.pop()
                parent = os.open("..", flags, dir_fd=fd)
                os.close(fd)
                fd = parent
                os.rmdir(way.pop(), dir_fd=fd)
            if not left[-1]:  # root is empty
                break
            name = left[-1].pop()
            child = os.open(name, flags, dir_fd=fd)
            os.close(fd)
            fd = child
            way.append(name)
    finally:
        os.close(fd)
    os.rmdir(root)


def imported(stderr: str) -> list[tuple[int, str]]:
    """(depth, module) per `-X importtime` line, in the order Python reports them."""
    out = []
    for line in stderr.splitlines():
        if line.startswith("import time:") and not line.endswith("imported package"):
            name = line.rsplit("|", 1)[1]
            out.append(((len(name) - len(name.lstrip())) // 2, name.strip()))
    return out


def run_readerless(
    argv: list[str], env: dict[str, str], *, stderr_too: bool = False
) -> tuple[int, str]:
    """Run argv with stdout on a pipe whose reader is gone before it starts (`| head -c0`),
    and stderr on it too, or read; return the exit code and what stderr said.

    Closing the reader after Popen raced: a child quick to write (a replay) filled the live
    pipe's buffer first, and saw no broken pipe at all."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            argv,
            stdout=write_end,
            stderr=write_end if stderr_too else subprocess.PIPE,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    return done.returncode, (done.stderr or b"").decode()


def settle_manifest(root: Path) -> None:
    """Put root's extset.toml in ext's manifest cache now, as the first run two seconds after
    it was written would (the cache keeps no file younger than that). A test that counts on
    a run being recorded for replay needs it: otherwise, on a machine slow enough, the first
    run to see the file two seconds old writes the cache, and a run that writes is no
    recording."""
    import time
    import tomllib

    from installer.ground import manifest_cache

    path = root / "extset.toml"
    data = tomllib.loads(path.read_bytes().decode("utf-8"))  # as ext reads it: no newline turned
    manifest_cache.remember(path, path.stat(), data, time.time_ns() + manifest_cache.SETTLED_NS)


# A process that holds ext's lock on the agent dir argv[1] until its stdin closes: a run at
# work, as journal.running and the lock's refusals tell one.
HOLDS_LOCK = """
import sys
from pathlib import Path
from installer.engine.lock import agent_lock
with agent_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""


def serve(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """A loopback HTTP server on a free port, answering on threads of its own until its
    `shutdown()`, which returns at once: `serve_forever` looks for it between polls of the
    socket, every 0.5 s unless told, and that was half a second at the end of each of the
    ~60 tests that serve a registry or a model (~30 s a run)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True  # server_close() waits for no request left hanging
    threading.Thread(target=httpd.serve_forever, args=(0.005,), daemon=True).start()
    return httpd


def stop(httpd: ThreadingHTTPServer) -> None:
    """Stop a server `serve` started, and close its socket."""
    httpd.shutdown()
    httpd.server_close()


def unwrapped(text: str) -> str:
    """Text as one line of single spaces: ext wraps a long message at any space on screen,
    so a test looks for a sentence in this."""
    return " ".join(text.split())


def holding_lock(agent_dir: Path, locked: bool = True) -> subprocess.Popen[str]:
    """Start a process that holds ext's lock on agent_dir (or, `locked` False, one that only
    lives), once it says so; the caller ends it with `.communicate("")`."""
    import sys

    code = HOLDS_LOCK if locked else "import sys; print('held', flush=True); sys.stdin.read()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(agent_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc
