"""Ask pi's own resource loader what it loads from agent dirs: the judge of what ext says.

`loader.mjs` (shipped beside this module) imports `DefaultResourceLoader` and
`SettingsManager` from the pi package that the pi binary belongs to, and runs under
the Node that runs pi. It imports the modules the package's entry re-exports them from,
not the whole entry (its providers and UI, most of a Node start on pi 1.6), unless the
entry is more than re-exports or `EXT_LOADER_WHOLE_SDK=1` is set. Many (agent dir, cwd)
pairs go in one call: one Node start. When the loader cannot be asked, `ask` returns an
`Unavailable` with the reason in one line, and callers fall back to what ext can tell
without it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from installer.host.node import Node, find_node, judge, refusal
from installer.host.pi import HostInfo, package_dir
from installer.host.trust import Trust

LOADER_TIMEOUT = 60.0
SCRIPT = Path(__file__).with_name("loader.mjs")
Kind = Literal["extension", "skill", "prompt", "theme"]


@dataclass(frozen=True)
class Loaded:
    """One resource pi loads: where it found it, its real path, and what pi calls it."""

    kind: Kind
    path: str
    real: str
    name: str | None = None
    scope: str | None = None  # user | project | temporary
    origin: str | None = None  # top-level (the agent dir) | package (settings.json packages)
    source: str | None = None  # "auto" (found in a folder), or the package entry's source


@dataclass(frozen=True)
class Failure:
    """An extension pi could not load, and pi's reason."""

    path: str
    real: str
    error: str


@dataclass(frozen=True)
class Conflict:
    """An extension that loaded but registers a tool or flag another one already has."""

    path: str
    real: str
    what: str  # tool | flag
    name: str
    other: str
    message: str


@dataclass(frozen=True)
class Command:
    """A slash command as pi offers it: the name registered, what pi calls it, whose it is."""

    name: str
    invocation: str  # `ext`, or `ext:1` when two extensions register `ext`
    path: str | None
    real: str | None


@dataclass(frozen=True)
class Diagnostic:
    """A skill, prompt or theme pi found and complained about (a bad file, a name collision)."""

    kind: str
    level: str
    message: str
    path: str | None
    winner: str | None = None  # a name collision: the file pi loads instead of `path`


@dataclass(frozen=True)
class View:
    """What pi's loader loads from one agent dir, as seen from one cwd."""

    agent_dir: str
    cwd: str
    loaded: tuple[Loaded, ...] = ()
    failed: tuple[Failure, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    settings_errors: tuple[str, ...] = ()
    error: str | None = None  # the loader itself threw for this agent dir
    trust: Trust | None = None  # what pi decided of the project at the cwd (None: not said)
    commands: tuple[Command, ...] | None = None  # None: this pi's SDK could not say

    def reals(self, kind: Kind) -> frozenset[str]:
        """Real paths of the resources of `kind` pi loads."""
        return frozenset(item.real for item in self.loaded if item.kind == kind)


@dataclass(frozen=True)
class Unavailable:
    """The loader could not be asked; `reason` is one line, for a finding or a skip."""

    reason: str


# ---- asking ------------------------------------------------------------------


def ask(
    host: HostInfo | None,
    jobs: Sequence[tuple[Path, Path]],
    env: Mapping[str, str] | None = None,
    timeout: float = LOADER_TIMEOUT,
) -> tuple[View, ...] | Unavailable:
    """pi's view of each (agent dir, cwd) in `jobs`, in one Node start; or why it cannot say."""
    from installer.host.pi import (
        _run,  # one way to run a child with a timeout and a killed group
        no_compile_cache,
    )

    environ = dict(os.environ if env is None else env)
    if host is None:
        return Unavailable("pi was not found on PATH, so its loader cannot be asked")
    package = package_dir(host)
    if package is None:
        return Unavailable(f"the pi package of {host.path} was not found beside it")
    node = _node(host, environ.get("PATH"))
    if isinstance(node, Unavailable):
        return node
    request = {
        "jobs": [{"agentDir": os.path.abspath(a), "cwd": os.path.abspath(c)} for a, c in jobs]
    }
    environ["PI_OFFLINE"] = "1"  # never install a missing settings package while asking
    environ = no_compile_cache(environ)  # nor leave compiled code in the temp folder
    with _request_file(request) as path:
        try:
            out = _run([str(node.path), str(SCRIPT), str(package), path], environ, timeout)
        except OSError as exc:
            return Unavailable(f"could not start {node.path} ({node.how}): {exc.strerror or exc}")
    if out.timed_out:
        return Unavailable(f"pi's loader did not answer within {timeout:g} s; it was stopped")
    return _parse(out.stdout, out.stderr, out.returncode, host)


def _node(host: HostInfo, path_env: str | None) -> Node | Unavailable:
    """The Node to run pi's loader with, or why there is none that can."""
    node = find_node(host, path_env)
    if node is None:
        return Unavailable(f"node was not found to run pi's loader (PATH, or beside {host.path})")
    too_old = refusal(host, judge(host, node))
    if too_old is not None:  # the loader would die in the same SyntaxError as pi itself
        return Unavailable(too_old.message)
    return node


@contextmanager
def _request_file(request: dict[str, Any]) -> Iterator[str]:
    """A private temp file holding the request, removed afterwards."""
    import tempfile

    fd, path = tempfile.mkstemp(prefix="extset-loader-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(request, f)
        yield path
    finally:
        os.unlink(path)


def _parse(
    stdout: str, stderr: str, code: int | None, host: HostInfo
) -> tuple[View, ...] | Unavailable:
    last = next((ln for ln in reversed(stdout.splitlines()) if ln.startswith("{")), "")
    try:
        data = json.loads(last)
    except ValueError:
        data = None
    if code == 3 and isinstance(data, dict):
        missing = ", ".join(data.get("missing") or ())
        version = host.version or data.get("version") or "?"
        return Unavailable(f"pi {version} does not export {missing}: its loader cannot be asked")
    if code != 0 or not isinstance(data, dict) or not isinstance(data.get("results"), list):
        from installer.host.node import why_node_stopped

        said = why_node_stopped(stderr) or "no output"
        return Unavailable(f"pi's loader failed (exit {code}): {said}")
    return tuple(_view(r) for r in data["results"])


_KINDS: tuple[tuple[str, Kind], ...] = (
    ("extensions", "extension"),
    ("skills", "skill"),
    ("prompts", "prompt"),
    ("themes", "theme"),
)


def _view(r: dict[str, Any]) -> View:
    loaded = tuple(
        Loaded(
            kind,
            i["path"],
            i.get("realPath") or i["path"],
            i.get("name"),
            i.get("scope"),
            i.get("origin"),
            i.get("source"),
        )
        for key, kind in _KINDS
        for i in r.get(key, ())
    )
    failed = tuple(
        Failure(f["path"], f.get("realPath") or f["path"], f["error"]) for f in r.get("failed", ())
    )
    conflicts = tuple(
        Conflict(
            c["path"], c.get("realPath") or c["path"], c["what"], c["name"], c["with"], c["message"]
        )
        for c in r.get("conflicts", ())
    )
    diagnostics = tuple(
        Diagnostic(
            d["kind"], d["type"], d["message"], d.get("realPath") or d.get("path"), d.get("winner")
        )
        for d in r.get("diagnostics", ())
    )
    commands = r.get("commands")
    return View(
        r["agentDir"],
        r["cwd"],
        loaded,
        failed,
        conflicts,
        diagnostics,
        tuple(r.get("settingsErrors", ())),
        r.get("error"),
        _trust(r.get("trust")),
        None if commands is None else tuple(_command(c) for c in commands),
    )


def _trust(data: Any) -> Trust | None:
    if not isinstance(data, dict) or not isinstance(data.get("trusted"), bool):
        return None
    return Trust(data["trusted"], str(data.get("decision") or ""))


def _command(c: dict[str, Any]) -> Command:
    return Command(c["name"], c.get("invocation") or c["name"], c.get("path"), c.get("realPath"))
