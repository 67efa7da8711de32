"""The update cache: last check, its results, when a release was first seen, the last notice."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from installer.updates.paths import default_cache_path
from installer.updates.results import CheckResult

SCHEMA = 1


@dataclass(frozen=True)
class FirstSeen:
    """When a check first reported `version` of `name` as the latest (for Homebrew's delay)."""

    name: str
    version: str
    at: float


@dataclass(frozen=True)
class CacheState:
    """Everything the passive notice needs, so a command never waits on the network."""

    checked_at: float | None = None
    notified_at: float | None = None
    refresh_started_at: float | None = None
    results: tuple[CheckResult, ...] = ()
    first_seen: tuple[FirstSeen, ...] = ()

    def seen_at(self, name: str, version: str | None) -> float | None:
        """When `version` of `name` was first seen as the latest, if it was."""
        for item in self.first_seen:
            if item.name == name and item.version == version:
                return item.at
        return None

    def to_json(self) -> dict[str, object]:
        """The cache file's content."""
        return {
            "schema": SCHEMA,
            "checked_at": self.checked_at,
            "notified_at": self.notified_at,
            "refresh_started_at": self.refresh_started_at,
            "results": [r.to_json() for r in self.results],
            "first_seen": [
                {"name": f.name, "version": f.version, "at": f.at} for f in self.first_seen
            ],
        }


def load_cache(path: Path | None = None) -> CacheState | None:
    """The cache, or None when there is none yet or it is unreadable (treated as a first run)."""
    import json

    try:
        data = json.loads((path or default_cache_path()).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return None
    results = tuple(
        r for r in map(CheckResult.from_json, _list(data.get("results"))) if r is not None
    )
    seen = tuple(f for f in map(_first_seen, _list(data.get("first_seen"))) if f is not None)
    return CacheState(
        checked_at=_time(data.get("checked_at")),
        notified_at=_time(data.get("notified_at")),
        refresh_started_at=_time(data.get("refresh_started_at")),
        results=results,
        first_seen=seen,
    )


def save_cache(state: CacheState, path: Path | None = None) -> None:
    """Write the cache atomically (temp file in the same folder, then replace), 0600; a link
    at its path is replaced, never written through."""
    import json

    from installer.ground import atomic

    target = path or default_cache_path()
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = json.dumps(state.to_json(), indent=2) + "\n"
    atomic.commit(atomic.stage(target, text, 0o600), target)  # replaces the path itself


# Records kept per thing checked (`ext`, `host`, `set`): one per installation, the newest.
KEEP_PER_NAME = 4
Key = tuple[str, str | None, str | None]


def key_of(result: CheckResult) -> Key:
    """What a result speaks for: the thing, its installation, the version that was checked."""
    return result.name, result.installation, result.current


def merge_results(
    previous: CacheState | None, results: Iterable[CheckResult], now: float
) -> CacheState:
    """The cache after a check at `now`, keyed by what each result checked: an answer replaces
    the record of the same installation (any version); a failure keeps only a good answer
    about the very same version, so a pi that changed is never answered for by the old one."""
    state = previous or CacheState()
    merged: dict[Key, CheckResult] = {key_of(r): r for r in state.results}
    seen = list(state.first_seen)
    for result in results:
        key = key_of(result)
        kept = merged.get(key)
        if result.status == "unavailable" and kept is not None and kept.status != "unavailable":
            continue  # a failed check is no news: keep the last good answer
        merged = {k: r for k, r in merged.items() if k[:2] != key[:2]}
        merged[key] = result  # newest last
        if result.newer and result.latest and state.seen_at(result.name, result.latest) is None:
            seen.append(FirstSeen(result.name, result.latest, now))
    kept_results = _newest(tuple(merged.values()))
    latest = {(r.name, r.latest) for r in kept_results}
    seen = [f for f in seen if (f.name, f.version) in latest]
    return replace(
        state,
        checked_at=now,
        refresh_started_at=None,
        results=kept_results,
        first_seen=tuple(seen),
    )


def _newest(results: tuple[CheckResult, ...]) -> tuple[CheckResult, ...]:
    """At most KEEP_PER_NAME records of each thing, the newest (the last ones)."""
    count: dict[str, int] = {}
    out: list[CheckResult] = []
    for r in reversed(results):
        count[r.name] = count.get(r.name, 0) + 1
        if count[r.name] <= KEEP_PER_NAME:
            out.append(r)
    return tuple(reversed(out))


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _time(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _first_seen(value: object) -> FirstSeen | None:
    if not isinstance(value, dict):
        return None
    name, version, at = value.get("name"), value.get("version"), _time(value.get("at"))
    if isinstance(name, str) and isinstance(version, str) and at is not None:
        return FirstSeen(name, version, at)
    return None
