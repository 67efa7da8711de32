"""The host profile: find pi, read its version and package scope, launch it, check it loads.

Only the standard library is imported at module level: `ext --version` calls
`find_host`, and a version library alone would cost more than the whole of this module.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from installer.ground.home import expand_home
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, NoReturn

    from installer.host.lines import PiLine

AGENT_DIR_VAR = "PI_CODING_AGENT_DIR"
# `pi --version` is a Node start (~0.5-1.3 s): a hung wrapper must not cost much more.
VERSION_TIMEOUT = 3.0
# `ext doctor` is asked for and waited on: a slow first Node start still gets its answer.
DOCTOR_VERSION_TIMEOUT = 15.0
LOAD_CHECK_TIMEOUT = 60.0
# A model no provider offers: pi still loads every extension, then stops with
# "Model not found" instead of sending the prompt with whatever key it finds.
_NO_MODEL = "extset-offline-check/none"
# dist/cli.js sits two levels under its package.json; leave room for a bin/ shim.
_PACKAGE_LEVELS = 4


class HostInfo(NamedTuple):
    """The host binary as found, and what it says about itself."""

    command: str
    path: Path
    resolved: Path
    version: str | None
    package: str | None
    scope: str | None
    version_source: Literal["package.json", "--version"] | None = None  # None: no version
    # Said once, by the run that found it out: `--version` hung (later runs read the cache).
    note: str | None = None
    # A path the set names, in a set not installed here: never run (installer.host.set_command).
    withheld: bool = False


# ---- finding the host -------------------------------------------------------


def find_host(
    command: str = "pi",
    path_env: str | None = None,
    *,
    timeout: float = VERSION_TIMEOUT,
    fresh: bool = False,
    untrusted: Path | None = None,
) -> HostInfo | None:
    """Find `command` (a name on PATH or a path) and read its version; None when not found.

    `path_env` replaces PATH for the lookup and for `<bin> --version`, whose
    `#!/usr/bin/env node` must find node on it. A version that needs `--version`
    is remembered per binary (`host_cache`); `fresh` asks again all the same.
    `untrusted` is the root of a set not trusted here: a binary it names is never run.
    """
    from installer.ground.which import which

    found = which(os.fspath(expand_home(command)), path=path_env)
    if found is None:
        return None
    withheld = False
    if untrusted is not None:
        from installer.host.set_command import set_chooses

        withheld = set_chooses(command, found, untrusted, path_env)
    path = Path(os.path.abspath(found))
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):  # a loop or a race: keep what PATH gave us
        resolved = path
    package, version = _read_package(resolved)
    if version is not None:
        scope = _scope_of(package)
        return HostInfo(
            command, path, resolved, version, package, scope, "package.json", withheld=withheld
        )
    from installer.host import cache as host_cache

    identity = host_cache.identity(resolved)
    cached = None if fresh and not withheld else host_cache.lookup(identity)
    note = None
    if cached is None and withheld:
        from installer.host.set_command import withheld_note

        version, note = None, withheld_note(command)
    elif cached is None:
        env = None if path_env is None else {**os.environ, "PATH": path_env}
        version, timed_out = _version_from_run(path, env, timeout)
        host_cache.remember(identity, version)
        if timed_out:
            note = (
                f"{path} --version did not answer within {timeout:g} s: version unknown "
                "(asked again in an hour, or when that file changes; `ext doctor` asks now)"
            )
    else:
        version = cached.version
    source: Literal["--version"] | None = "--version" if version else None
    scope = _scope_of(package)
    return HostInfo(command, path, resolved, version, package, scope, source, note, withheld)


def line_here(command: str = "pi", path_env: str | None = None) -> PiLine:
    """The line of the pi `command` finds, read from its package.json alone (never started:
    a no-op install asks it); today's line when no pi is found or its package.json is silent."""
    from installer.host.lines import line_of

    found = package_here(command, path_env)
    return line_of(*found) if found is not None else line_of()


def package_here(
    command: str = "pi", path_env: str | None = None
) -> tuple[str | None, str | None] | None:
    """(version, package) of the pi `command` finds, from its package.json alone, never run
    (a set's own host command included); None when nothing is found."""
    from installer.ground.which import which

    found = which(os.fspath(expand_home(command)), path=path_env)
    if found is None:
        return None
    try:
        resolved = Path(found).resolve(strict=True)
    except (OSError, RuntimeError):
        resolved = Path(found)
    package, version = _read_package(resolved)
    return version, package


def package_dir(host: HostInfo) -> Path | None:
    """The folder of the pi package whose binary `host` is (its package.json names it)."""
    if host.package is None:
        return None
    for folder in list(host.resolved.parents)[:_PACKAGE_LEVELS]:
        try:
            data = package_json(folder)
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("name") == host.package:
            return folder
    return None


def package_json(folder: Path) -> object:
    """The parsed `package.json` in folder; OSError or ValueError as reading it would raise.

    Finding pi, its package folder and its `engines.node` each read the same file: it is
    parsed once per process while its stat says it is the same file (as the manifest cache
    does, not kept while under two seconds old, where a coarse clock hides a second edit).
    """
    import time

    from installer.ground.manifest_cache import SETTLED_NS, stamp

    name = os.path.join(folder, "package.json")
    st = os.stat(name)
    key = (name, *stamp(st))
    if key in _PARSED:
        return _PARSED[key]
    from installer.ground.jsondepth import loads

    with open(name, encoding="utf-8") as f:  # a set's own bin/pi beside a deep one: helper-80
        data = loads(f.read())
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) >= SETTLED_NS:
        if len(_PARSED) >= 16:  # a run looks at one pi or two; a long test session, more
            _PARSED.clear()
        _PARSED[key] = data
    return data


_PARSED: dict[tuple[object, ...], object] = {}


def _read_package(resolved: Path) -> tuple[str | None, str | None]:
    """Name and version of the package whose `bin` is `resolved`; (None, None) when none fits."""
    for folder in list(resolved.parents)[:_PACKAGE_LEVELS]:
        if folder.name == "node_modules":
            break  # walked out of the package
        try:
            data = package_json(folder)
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            break
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            continue  # a {"type": "module"} marker, not a package
        if not _bin_fits(data, folder, resolved):
            break
        from installer.host.versions import looks_like_version

        version = data.get("version")
        ok = isinstance(version, str) and looks_like_version(version)
        return data["name"], version if ok else None
    return None, None


def _bin_fits(data: dict[str, object], folder: Path, resolved: Path) -> bool:
    """True when the package's `bin` points at `resolved` (or, without a bin, its name does)."""
    name = str(data["name"])
    bins = data.get("bin")
    if isinstance(bins, str):
        bins = {name.rpartition("/")[2]: bins}
    if not isinstance(bins, dict):
        return name.rpartition("/")[2] == resolved.name
    targets = [folder / t for t in bins.values() if isinstance(t, str)]
    try:
        return any(target.resolve() == resolved for target in targets)
    except (OSError, RuntimeError):  # a symlink loop inside the package
        return False


def _scope_of(package: str | None) -> str | None:
    if package is None or not package.startswith("@") or "/" not in package:
        return None
    return package.partition("/")[0]


def no_compile_cache(env: Mapping[str, str]) -> dict[str, str]:
    """`env` for a check's Node run, which leaves nothing behind: pi's extension loader (jiti)
    would keep each extension it compiles in <tmp>/jiti, and Node its compiled code in
    <tmp>/node-compile-cache (pi 1.x's start turns it on), for every user of that folder, and
    never clean them. A cache the user asked for by name (NODE_COMPILE_CACHE, JITI_FS_CACHE)
    is theirs to fill: their choice holds."""
    quiet = dict(env)
    if not env.get("JITI_FS_CACHE"):
        quiet["JITI_FS_CACHE"] = "false"
    if not env.get("NODE_COMPILE_CACHE"):
        quiet["NODE_DISABLE_COMPILE_CACHE"] = "1"
    return quiet


def _version_from_run(
    path: Path, env: Mapping[str, str] | None, timeout: float
) -> tuple[str | None, bool]:
    """`<bin> --version` and whether it hung; the version is None when it fails or prints none."""
    quiet = no_compile_cache(os.environ if env is None else env)  # nothing left in temp
    try:
        out = _run([str(path), "--version"], quiet, timeout)
    except OSError:
        return None, False
    if out.timed_out:
        return None, True
    from installer.host.versions import version_in

    return version_in(out.stdout) or version_in(out.stderr), False


class _Output(NamedTuple):  # private, and a NamedTuple is cheaper to define at import
    stdout: str
    stderr: str
    returncode: int | None
    timed_out: bool


def _run(
    argv: list[str], env: Mapping[str, str] | None, timeout: float, cwd: Path | None = None
) -> _Output:
    """Run argv in its own process group; on timeout kill the whole group (node, shells)."""
    import signal
    import subprocess

    from installer.ground.which import for_children

    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=for_children(os.environ if env is None else env),  # its `env node` too: helper-77
        cwd=cwd,
        start_new_session=True,
        encoding="utf-8",
        errors="replace",
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        return _Output(out, err, proc.returncode, timed_out=False)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a grandchild left the group and holds the pipes
            out, err = "", ""
        return _Output(out, err, None, timed_out=True)


run_bounded = _run  # the same for another host's binary (installer.hosts.binary)


# ---- versions and ranges: installer.host.versions ---------------------------------


def drift_message(
    host_version: str | None,
    tested: str | None,
    command: str = "pi",
    package: str | None = None,
    resolved: Path | None = None,
) -> str | None:
    """One line when the host is outside `tested`, naming both and the fix; else None."""
    parts = drift_parts(host_version, tested, command, package, resolved)
    return f"{parts[0]}: {parts[1]}" if parts else None


def drift_parts(
    host_version: str | None,
    tested: str | None,
    command: str = "pi",
    package: str | None = None,
    resolved: Path | None = None,
) -> tuple[str, str] | None:
    """What is wrong and the fix (a command installing a tested pi), when the host is outside
    `tested`; None inside it, or when either side cannot be read."""
    from installer.host.versions import where

    side = where(host_version, tested)
    if side is None or side == "in" or tested is None:
        return None
    relation = {"older": "older than", "newer": "newer than", "between": "not one of"}[side]
    from installer.host.hints import install_tested

    what = f"{command} {host_version} is {relation} the versions this set was tested with"
    return f"{what} ({tested})", install_tested(host_version, package, tested, resolved)


# ---- running the host -------------------------------------------------------


def launch_env(agent_dir: Path, base_env: Mapping[str, str]) -> dict[str, str]:
    """A copy of `base_env` that points the host at `agent_dir`."""
    env = dict(base_env)
    env[AGENT_DIR_VAR] = os.path.abspath(agent_dir)
    return env


def launch(
    host: HostInfo,
    agent_dir: Path,
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> NoReturn:
    """Replace this process with the host, so signals and the TTY are the host's."""
    full_env = launch_env(agent_dir, os.environ if env is None else env)
    sys.stdout.flush()  # exec drops Python's buffers: a warning printed just before would vanish
    sys.stderr.flush()
    try:
        from installer.ground import modes

        modes.give_back()  # pi's files as the person's umask makes them
        os.execve(host.path, [host.command, *args], full_env)  # noqa: S606 -- exec is the point
    except OSError as exc:
        raise _cannot_start(host, exc) from exc


def _cannot_start(host: HostInfo, exc: OSError) -> Exception:
    from installer.ground.errors import ExtError

    return ExtError(
        f"could not start {host.command} ({host.path}): {exc.strerror or exc}",
        fix=f"check that {host.path} is executable and its interpreter (node) is on PATH",
    )


class LoadFailure(NamedTuple):
    """One extension pi could not load: its path as pi printed it, and pi's reason."""

    path: Path
    reason: str
    detail: str = ""  # the lines pi printed under the reason (a require stack, a code frame)


class LoadReport(NamedTuple):
    """What an offline start of the host said about the extensions it loaded."""

    failures: tuple[LoadFailure, ...]
    timed_out: bool
    finished: bool  # pi got past loading extensions (it went on to look for a model)
    returncode: int | None
    output: str


_FAILED = r'(?:Error: )?Failed to load extension "(.+?)": (.*)'
_PAST_LOADING = r'(?:Error: )?(?:Model ".*" not found|No API key found)'


def offline_load_check(
    host: HostInfo,
    agent_dir: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = LOAD_CHECK_TIMEOUT,
) -> LoadReport:
    """Start the host offline on `agent_dir` and collect every extension that failed to load."""
    import tempfile

    from installer.host.startfiles import absent, take_back

    argv = [str(host.path), "-p", "x", "--offline", "--no-session", "--model", _NO_MODEL]
    run_env = no_compile_cache(launch_env(agent_dir, os.environ if env is None else env))
    new = absent(
        agent_dir
    )  # what pi's start makes for itself, taken back after: a check writes nothing
    try:
        # The agent dir as the cwd, as the loader has it (an empty folder when it is not yet):
        # pi 0.73 loads the `.pi/extensions` of the folder it starts in, unasked (helper-69: a
        # cloned repository's ran).
        with tempfile.TemporaryDirectory(prefix="extset-pi-") as empty:
            here = agent_dir if agent_dir.is_dir() else Path(empty)
            out = _run(argv, run_env, timeout, cwd=here)
    except OSError as exc:
        raise _cannot_start(host, exc) from exc
    finally:
        take_back(agent_dir, new)
    text = out.stderr + out.stdout
    failures, finished = parse_load_output(text)
    return LoadReport(failures, out.timed_out, finished, out.returncode, text)


def parse_load_output(text: str) -> tuple[tuple[LoadFailure, ...], bool]:
    """Failures in pi's output, and whether pi got past loading extensions."""
    found: list[tuple[str, str, list[str]]] = []
    detail: list[str] | None = None  # where lines under a failure go
    finished = False
    for line in text.splitlines():
        match = re.fullmatch(_FAILED, line)
        if match:
            detail = []
            found.append((match.group(1), match.group(2), detail))
        elif line.startswith(("Error: ", "No API key found")):
            finished = finished or bool(re.match(_PAST_LOADING, line))
            detail = None
        elif detail is not None:
            detail.append(line)
    failures = tuple(
        LoadFailure(Path(path), reason, "\n".join(lines).strip("\n"))
        for path, reason, lines in found
    )
    return failures, finished
