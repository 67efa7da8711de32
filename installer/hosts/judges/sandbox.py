"""A temp home to run a host's binary in, whose folders link to the user's, and the runs.

Hosts write at start (sessions, logs, a settings file, their own built-in skills), so a
judge never points a host at the user's dirs themselves: it points it at a sandbox whose
config dir is a real temp folder holding links to the user's entries (or copies, for config
files a host may rewrite), and maps the paths the host reports back to the user's.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

from installer.ground.which import for_children
from installer.hosts.judges import JudgeError

TIMEOUT = 60.0
XDG = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_CACHE_HOME": ".cache",
    "XDG_STATE_HOME": ".local/state",
}


class Output(NamedTuple):
    stdout: str
    stderr: str
    returncode: int


class Sandbox:
    """A temp HOME (with XDG dirs and an empty cwd), removed on exit."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="extset-judge-"))
        self.home = self.root / "home"
        self.cwd = self.root / "work"
        self.home.mkdir()
        self.cwd.mkdir()
        self._back: list[tuple[str, str]] = []

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        shutil.rmtree(self.root, ignore_errors=True)  # rmtree does not follow links

    def link(self, real: Path, rel: str) -> None:
        """`rel` (under the sandbox home) as a link to `real`, when `real` exists."""
        if not real.exists():
            return
        place = self.home / rel
        place.parent.mkdir(parents=True, exist_ok=True)
        place.symlink_to(real)
        self._back.append((str(place), str(real)))

    def mirror(self, real: Path, rel: str, keep: Callable[[str], bool] = bool) -> Path:
        """`rel` as a real folder holding a link to each entry of `real` whose name `keep`
        accepts: the host can write beside them without writing into `real`."""
        place = self.home / rel
        place.mkdir(parents=True, exist_ok=True)
        if real.is_dir():
            for entry in sorted(real.iterdir()):
                if keep(entry.name):
                    (place / entry.name).symlink_to(entry)
        self._back.append((str(place), str(real)))
        return place

    def copy(self, real: Path, rel: str) -> None:
        """A copy of the file `real` at `rel`, for a config file the host may rewrite."""
        if real.is_file():
            place = self.home / rel
            place.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(real, place)

    def write(self, rel: str, text: str) -> None:
        """`text` as the file at `rel` (a config file ext made from the user's)."""
        place = self.home / rel
        place.parent.mkdir(parents=True, exist_ok=True)
        place.write_text(text, encoding="utf-8")

    def back(self, path: str) -> str:
        """`path` as the host reported it, with the sandbox's places mapped to the user's."""
        for place, real in sorted(self._back, key=lambda pair: -len(pair[0])):
            if path == place or path.startswith(place + os.sep):
                return real + path[len(place) :]
        return path

    def env(self, environ: Mapping[str, str], **extra: str) -> dict[str, str]:
        """HOME and the XDG dirs in the sandbox, PATH (and locale) from `environ`, and `extra`.
        A folder the user named for Node's compile cache is theirs, and kept (a Node host
        starts faster from its second run), as is their choice to keep that cache off."""
        node = ("NODE_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE")
        kept = ("PATH", "LANG", "LC_ALL", "SYSTEMROOT", *node)
        env = {k: environ[k] for k in kept if k in environ}
        env["HOME"] = str(self.home)
        env["TMPDIR"] = str(self.root)
        for var, rel in XDG.items():
            env[var] = str(self.home / rel)
        env.update(extra)
        return env


def run(argv: list[str], env: Mapping[str, str], cwd: Path, timeout: float = TIMEOUT) -> Output:
    """Run argv to its end in its own process group; a missing binary or a timeout is a
    JudgeError naming the fix."""
    proc = _start(argv, env, cwd, stdin=False)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        raise JudgeError(
            f"{Path(argv[0]).name} did not answer within {timeout:g} s; it was stopped",
            "run it by hand to see where it waits (a login prompt, a network fetch)",
        ) from None
    return Output(out, err, proc.returncode)


def lines(
    argv: list[str],
    env: Mapping[str, str],
    cwd: Path,
    until: Callable[[str], bool],
    send: Sequence[str] = (),
    close: bool = False,
    timeout: float = TIMEOUT,
) -> list[str]:
    """The stdout lines of argv up to the first for which `until` holds, then stop it.

    `send` is written to its stdin first (one JSON-RPC request a line, say), which is then
    closed when `close` (a host that reads a prompt from a piped stdin). No sleeps: a reader
    thread hands each line over as it arrives, within one deadline for all."""
    import queue
    import threading
    import time

    proc = _start(argv, env, cwd, stdin=True)
    got: queue.Queue[str | None] = queue.Queue()
    stdin, stdout = proc.stdin, proc.stdout
    if stdin is None or stdout is None:  # not so: both are pipes
        raise JudgeError(f"could not talk to {argv[0]}", "run it by hand to see its error")

    def read() -> None:
        for line in stdout:
            got.put(line)
        got.put(None)

    threading.Thread(target=read, daemon=True).start()
    seen: list[str] = []
    try:
        for message in send:
            stdin.write(message + "\n")
        stdin.flush()
        if close:
            stdin.close()
        deadline = time.monotonic() + timeout
        while True:
            line = got.get(timeout=max(0.0, deadline - time.monotonic()))
            if line is None:
                return seen  # it ended before the awaited line: the caller says why
            seen.append(line)
            if until(line):
                return seen
    except queue.Empty:
        raise JudgeError(
            f"{Path(argv[0]).name} did not answer within {timeout:g} s; it was stopped",
            "run it by hand to see where it waits (a login prompt, a network fetch)",
        ) from None
    except OSError as exc:  # it closed its stdin early
        raise JudgeError(
            f"{Path(argv[0]).name} stopped before it was asked: {exc.strerror or exc}",
            "run it by hand to see its error",
        ) from None
    finally:
        _stop(proc, drain=False)  # the reader thread owns stdout


def _start(
    argv: list[str], env: Mapping[str, str], cwd: Path, stdin: bool
) -> subprocess.Popen[str]:
    try:
        return subprocess.Popen(
            argv,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if not stdin else subprocess.DEVNULL,
            env=for_children(env),  # the host's `#!/usr/bin/env node` too (helper-77)
            cwd=cwd,
            start_new_session=True,
            encoding="utf-8",
            errors="replace",
        )
    except OSError as exc:
        raise JudgeError(
            f"could not run {argv[0]}: {exc.strerror or exc}",
            "install the host (its npm package), or name its binary with the right path",
        ) from None


def _stop(proc: subprocess.Popen[str], drain: bool = True) -> None:
    """Kill the whole group (node, helpers) and reap it."""
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)  # helpers it left behind too, even once it ended
    except OSError:
        proc.kill()
    try:
        if drain:
            proc.communicate(timeout=5)
        else:
            if proc.stdin is not None and not proc.stdin.closed:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            proc.wait(timeout=5)
    except (subprocess.TimeoutExpired, ValueError):
        pass  # a grandchild left the group and holds the pipes


def version_of(binary: str, environ: Mapping[str, str], args: tuple[str, ...] = ()) -> str | None:
    """The first x.y.z in what `binary --version` prints, or None."""
    import re

    with Sandbox() as box:
        try:
            out = run([binary, *args, "--version"], box.env(environ), box.cwd, timeout=30)
        except JudgeError:
            return None
    match = re.search(r"\d+\.\d+\.\d+", out.stdout + out.stderr)
    return match[0] if match else None
