"""Retired and renamed keys: `[settings.retired]` {key: why} and `[settings.renamed]` {old: new}."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from installer.ground.records import NamedTuple
from installer.settings import dotted
from installer.settings.jsondoc import clone

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Retired(NamedTuple):
    """A retired key still present in settings.json."""

    key: str
    why: str
    value: Any


class Renamed(NamedTuple):
    """A key present under its old name; new_present means both names are set."""

    old: str
    new: str
    value: Any
    new_present: bool


class Migration(NamedTuple):
    """Settings after moving renamed keys, and what was moved or left for the user."""

    settings: dict[str, Any]
    moved: tuple[Renamed, ...] = ()
    conflicts: tuple[Renamed, ...] = ()
    blocked: tuple[Renamed, ...] = ()

    @property
    def changed(self) -> bool:
        """True when at least one key moved."""
        return bool(self.moved)


def find_retired(settings: Mapping[str, Any], retired: Mapping[str, str]) -> list[Retired]:
    """The retired keys that settings still has (dotted names allowed)."""
    out = []
    for key, why in retired.items():
        found = dotted.lookup(settings, key)
        if found.found:
            out.append(Retired(key, why, found.value))
    return out


def find_renamed(settings: Mapping[str, Any], renamed: Mapping[str, str]) -> list[Renamed]:
    """The old names that settings still has, and whether the new name is set too."""
    out = []
    for old, new in renamed.items():
        found = dotted.lookup(settings, old)
        if found.found:
            out.append(Renamed(old, new, found.value, dotted.lookup(settings, new).found))
    return out


def migrate(settings: Mapping[str, Any], renamed: Mapping[str, str]) -> Migration:
    """Move each old name's value to its new name when the new name is absent.

    Both present: a conflict, left as it is. A new name whose parent is present but not
    an object: blocked, left as it is. settings is not changed.
    """
    out = clone(dict(settings))
    moved, conflicts, blocked = [], [], []
    for item in find_renamed(out, renamed):
        target = dotted.lookup(out, item.new)
        if item.new_present:
            conflicts.append(item)
        elif target.blocked_at is not None:
            blocked.append(item)
        else:
            dotted.put(out, item.new, item.value)
            dotted.remove(out, item.old)
            moved.append(item)
    return Migration(out, tuple(moved), tuple(conflicts), tuple(blocked))


def remove_retired(
    settings: Mapping[str, Any], retired: Mapping[str, str], keys: Iterable[str] | None = None
) -> tuple[dict[str, Any], list[Retired]]:
    """Delete retired keys (all present ones, or only `keys`); the caller has shown them first."""
    out = clone(dict(settings))
    chosen = None if keys is None else set(keys)
    removed = [r for r in find_retired(out, retired) if chosen is None or r.key in chosen]
    for item in removed:
        dotted.remove(out, item.key)
    return out, removed
