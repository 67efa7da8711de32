"""First-run seeds: write a manifest's `[settings.seed]` keys only where settings lack them."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from installer.ground.errors import UsageError
from installer.ground.records import NamedTuple
from installer.settings import dotted
from installer.settings.jsondoc import MAX_DEPTH, clone

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Blocked(NamedTuple):
    """A seed that cannot be written: a parent of its key is present and is not an object."""

    key: str
    at: str
    value: Any


class SeedResult(NamedTuple):
    """The settings with seeds applied, and what happened to each seed."""

    settings: dict[str, Any]
    seeded: Mapping[str, Any] = MappingProxyType({})
    kept: tuple[str, ...] = ()
    blocked: tuple[Blocked, ...] = ()

    @property
    def changed(self) -> bool:
        """True when at least one key is written."""
        return bool(self.seeded)


def apply_seeds(settings: Mapping[str, Any], seeds: Mapping[str, Any]) -> SeedResult:
    """Seed each key that is absent; a present key, whatever its value, is the user's choice.

    Keys may be dotted (`compaction.enabled`) or nested tables; both mean nested objects.
    settings is not changed; the result holds a new dict.
    """
    out = clone(dict(settings))
    seeded: dict[str, Any] = {}
    kept: list[str] = []
    blocked: list[Blocked] = []
    for key, value in dotted.flatten(seeds).items():
        _check_depth(key, value)
        found = dotted.lookup(out, key)
        if found.blocked_at is not None:
            blocked.append(Blocked(key, found.blocked_at, value))
        elif found.found:
            kept.append(key)
        else:
            dotted.put(out, key, clone(value))
            seeded[key] = value
    return SeedResult(out, seeded, tuple(kept), tuple(blocked))


def _depth(value: Any) -> int:
    """How many objects and arrays nest in value (a scalar: 0)."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _check_depth(key: str, value: Any) -> None:
    """A seed that would nest deeper than a read accepts would lock every later run out."""
    depth = key.count(".") + 1 + _depth(value)  # the top-level object, each parent, the value
    if depth > MAX_DEPTH:
        shown = key if len(key) <= 60 else key[:60] + "…"
        raise UsageError(
            f"[settings.seed] {shown} nests {depth} levels deep in settings.json; "
            f"ext reads at most {MAX_DEPTH}",
            fix=f"use a key with fewer dotted parts (at most {MAX_DEPTH} levels with the value)",
        )
