"""When a passive notice may be shown and a background refresh started: pure functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from installer.updates.cache import CacheState
    from installer.updates.results import CheckResult

DAY = 24 * 60 * 60.0
# A refresh that was started but never wrote its results is retried after this long.
REFRESH_RETRY = 60 * 60.0
_CI_PRESENCE = ("CONTINUOUS_INTEGRATION", "BUILD_NUMBER", "RUN_ID")


def _flag(env: Mapping[str, str], name: str) -> bool:
    return name in env and env[name].strip().lower() not in ("0", "false")


def is_ci(env: Mapping[str, str]) -> bool:
    """CI detected: `CI` unless 0/false, or any of CONTINUOUS_INTEGRATION, BUILD_NUMBER, RUN_ID."""
    return _flag(env, "CI") or any(name in env for name in _CI_PRESENCE)


def silenced_by(env: Mapping[str, str], *, tty: bool, config_check: bool = True) -> str | None:
    """Why passive notices are off (a short reason), or None when they may run."""
    for name in ("EXT_NO_UPDATE_CHECK", "NO_UPDATE_NOTIFIER"):
        if _flag(env, name):
            return name
    if is_ci(env):
        return "CI"
    if not tty:
        return "no TTY"
    if not config_check:
        return "[updates] check = false"
    return None


def refresh_due(cache: CacheState | None, now: float) -> bool:
    """True when the cache is missing or over a day old, and no refresh is already under way."""
    if cache is not None and cache.checked_at is not None and now - cache.checked_at < DAY:
        return False
    started = cache.refresh_started_at if cache is not None else None
    return started is None or not 0 <= now - started < REFRESH_RETRY


ANY_RANGE = object()  # is_stale's `tested` when the reader has no range to hold a result to


def is_stale(
    result: CheckResult,
    current: Mapping[str, str | None],
    installed: Mapping[str, str | None] | None = None,
    tested: object = ANY_RANGE,
) -> bool:
    """True when what was checked is no longer what is installed: the user upgraded since, or
    this is another installation than the one checked (`installed`: name -> installation),
    or (`tested`: the set's [host] tested) the host was judged by another range (helper-40:
    doctor gave advice for a range the set no longer had)."""
    have = current.get(result.name)
    if have is not None and have != result.current:
        return True
    if result.name == "host" and tested is not ANY_RANGE and result.tested != tested:
        return True
    here = (installed or {}).get(result.name)
    # A result cached before installations were recorded speaks for whoever reads it.
    return None not in (here, result.installation) and here != result.installation


def due_notices(
    cache: CacheState | None,
    now: float,
    current: Mapping[str, str | None],
    installed: Mapping[str, str | None] | None = None,
    tested: object = ANY_RANGE,
) -> tuple[CheckResult, ...]:
    """The cached updates worth telling now.

    Nothing on a first run (no completed check yet), nothing within a day of the
    last notice, nothing the user has already acted on (`current` differs from
    what was checked), and a Homebrew release only once it is a day old.
    """
    if cache is None or cache.checked_at is None:
        return ()
    if cache.notified_at is not None and 0 <= now - cache.notified_at < DAY:
        return ()
    due = []
    for result in cache.results:
        if not result.newer:
            continue
        if is_stale(result, current, installed, tested):
            continue
        if result.method == "homebrew":
            seen = cache.seen_at(result.name, result.latest)
            if seen is None or now - seen < DAY:
                continue
        due.append(result)
    return tuple(due)


def quiet_until(cache: CacheState | None, now: float) -> float | None:
    """The first moment after `now` at which refresh_due or due_notices may answer otherwise
    than they answer at `now` (None: the clock alone never changes their answer).

    Each of them compares `now` with a time in the cache (the last check, a refresh started,
    the last notice, a release first seen) and that time plus a period: those are the
    moments a replay of a run that asked them stops standing for a real run.
    """
    if cache is None:
        return None
    marks = [cache.checked_at, cache.notified_at, *(item.at for item in cache.first_seen)]
    moments = [t + DAY for t in marks if t is not None] + [t for t in marks if t is not None]
    if cache.refresh_started_at is not None:
        moments += [cache.refresh_started_at, cache.refresh_started_at + REFRESH_RETRY]
    later = [t for t in moments if t > now]
    return min(later) if later else None
