"""Passive notices for install/list/doctor/launch, and the detached refresh that feeds them.

A command only ever reads the cache here; the network is asked by a detached
`python -m installer.updates refresh` that outlives the command if it must.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from installer.updates.policy import silenced_by

if TYPE_CHECKING:
    import subprocess

    from installer.updates.check import HostFacts, Report
    from installer.updates.fetch import Limits
    from installer.updates.method import InstallFacts
    from installer.updates.results import CheckResult

SILENCE = "Set EXT_NO_UPDATE_CHECK=1 to silence update notices."

Spawner = Callable[["HostFacts | None", "Path | None", Path], object]


@dataclass(frozen=True)
class Notice:
    """Updates to tell the user about, one line each."""

    items: tuple[CheckResult, ...]

    def lines(self) -> tuple[str, ...]:
        """One line per update, with its upgrade command."""
        return tuple(item.line() for item in self.items)

    def text(self) -> str:
        """The whole notice for stderr, ending with how to silence it."""
        return "\n".join((*self.lines(), SILENCE))


def passive_notice(
    *,
    host: HostFacts | None = None,
    set_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
    now: float | None = None,
    tty: bool | None = None,
    cache_path: Path | None = None,
    config_path: Path | None = None,
    spawn: Spawner | None = None,
) -> Notice | None:
    """The cached notice due now, if any; starts a detached refresh when the cache is stale.

    Never waits on the network and never raises: any surprise means no notice.
    """
    try:
        return _passive(host, set_dir, env, now, tty, cache_path, config_path, spawn)
    except Exception:  # a notice is never worth breaking the command it rides on
        return None


def _passive(
    host: HostFacts | None,
    set_dir: Path | None,
    env: Mapping[str, str] | None,
    now: float | None,
    tty: bool | None,
    cache_path: Path | None,
    config_path: Path | None,
    spawn: Spawner | None,
) -> Notice | None:
    env = os.environ if env is None else env
    if silenced_by(env, tty=_both_ttys() if tty is None else tty):
        return None
    # Loaded only past the cheap checks: CI, scripts and silenced users pay for nothing more.
    from installer.updates.cache import CacheState, load_cache, save_cache
    from installer.updates.gitrefs import head_sha
    from installer.updates.paths import default_cache_path, passive_checks_enabled
    from installer.updates.policy import due_notices, refresh_due

    if not passive_checks_enabled(config_path):
        return None
    path = cache_path or default_cache_path()
    now = time.time() if now is None else now
    cache = load_cache(path)
    if refresh_due(cache, now):
        cache = replace(cache or CacheState(), refresh_started_at=now)
        save_cache(cache, path)
        (spawn or spawn_refresh)(host, set_dir, path)
    current = {
        "ext": _own_version(),
        "host": host.version if host else None,
        "set": head_sha(set_dir) if set_dir else None,
    }
    from installer.updates.results import installations

    where = installations(host.resolved if host else None, set_dir)
    due = due_notices(cache, now, current, where, host.tested if host else None)
    from installer.ground.replay import bound
    from installer.updates.policy import quiet_until

    bound(now, quiet_until(cache, now))  # a replay of this run holds until then
    if not due:
        return None
    # Re-read: a refresh may have written since, and its results must not be lost.
    latest = load_cache(path) or cache or CacheState()
    save_cache(replace(latest, notified_at=now), path)
    return Notice(due)


def spawn_refresh(
    host: HostFacts | None, set_dir: Path | None, cache_path: Path
) -> subprocess.Popen[bytes] | None:
    """Start `python -m installer.updates refresh` detached and return at once (None if it failed).

    Callers never wait on it: a refresh that outlives the command just updates
    the cache for next time.
    """
    import subprocess

    from installer.ground.which import for_children

    # -P and ext's own cache folder as its cwd: `-m` would import an `installer/` of the
    # folder ext runs in before ext's own (helper-69: a cloned repository's ran)
    args = [sys.executable, "-P", "-m", "installer.updates", "refresh", "--cache", str(cache_path)]
    if set_dir is not None:
        args += ["--set", str(set_dir)]
    if host is not None:
        args += ["--host-command", host.command]
        for flag, value in (
            ("--host-package", host.package),
            ("--host-version", host.version),
            ("--host-path", host.resolved),
            ("--host-tested", host.tested),
        ):
            if value is not None:
                args += [flag, str(value)]
    try:
        return subprocess.Popen(
            args,
            env=for_children(_finding_ext()),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not killed with the terminal, never holds it
            close_fds=True,
            cwd=cache_path.parent if cache_path.parent.is_dir() else "/",
        )
    except OSError:
        return None  # no refresh this time; the next command retries after REFRESH_RETRY


def _finding_ext() -> dict[str, str]:
    """The environment, with the folder ext's own `installer` package is in first on
    PYTHONPATH and every relative entry made absolute: with -P and another cwd, a source tree
    run as `PYTHONPATH=.` (or `python -c` in it) found no ext (helper-71)."""
    import os

    import installer

    here = os.path.dirname(os.path.dirname(os.path.abspath(installer.__file__)))
    given = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**os.environ, "PYTHONPATH": os.pathsep.join([here, *given])}


def refresh(
    *,
    host: HostFacts | None = None,
    set_dir: Path | None = None,
    cache_path: Path | None = None,
    env: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    facts: InstallFacts | None = None,
    clock: Callable[[], float] = time.time,
    set_withheld: str | None = None,
) -> Report:
    """Check now and merge the results into the cache (what the background process runs)."""
    from installer.updates.cache import load_cache, merge_results, save_cache
    from installer.updates.check import check_now
    from installer.updates.fetch import DEFAULT_LIMITS
    from installer.updates.paths import default_cache_path

    report = check_now(
        host=host,
        set_dir=set_dir,
        env=env,
        limits=limits or DEFAULT_LIMITS,
        facts=facts,
        clock=clock,
        set_withheld=set_withheld,
    )
    path = cache_path or default_cache_path()
    try:
        save_cache(merge_results(load_cache(path), report.results, report.checked_at), path)
    except OSError as exc:  # a read-only or full cache: the answers stand, unkept
        why = exc.strerror or str(exc)
        kept = (
            f"the check could not be kept in {path} ({why}): doctor and the notices "
            f"will not see it; set XDG_CACHE_HOME to a folder you can write"
        )
        return replace(report, warnings=(*report.warnings, kept))
    return report


def _both_ttys() -> bool:
    try:
        return sys.stdout.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def _own_version() -> str:
    from installer import __version__

    return __version__
