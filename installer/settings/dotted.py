"""Dotted key names (`compaction.enabled`) as paths into nested settings objects."""

from __future__ import annotations

from collections.abc import Mapping

from installer.ground.errors import UsageError
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def split(name: str) -> tuple[str, ...]:
    """`a.b.c` -> ("a", "b", "c"); an empty part is a manifest mistake."""
    parts = tuple(name.split("."))
    if not all(parts):
        raise UsageError(
            f'settings key "{name}" has an empty part',
            fix='write nested keys as "parent.child", with no leading, trailing or double dot',
        )
    return parts


class Lookup(NamedTuple):
    """Where a dotted name stands in some settings.

    found: the key is present (value holds it, whatever it is, null included).
    blocked_at: the dotted prefix that is present but not an object, so the key cannot exist.
    """

    found: bool
    value: Any = None
    blocked_at: str | None = None


def lookup(data: Mapping[str, Any], name: str) -> Lookup:
    """Find a dotted name in data without changing anything."""
    parts = split(name)
    node: Any = data
    for depth, part in enumerate(parts):
        if not isinstance(node, dict):
            return Lookup(found=False, blocked_at=".".join(parts[:depth]))
        if part not in node:
            return Lookup(found=False)
        node = node[part]
    return Lookup(found=True, value=node)


def put(data: dict[str, Any], name: str, value: Any) -> None:
    """Set a dotted name in data (in place), making missing parent objects.

    The caller checks lookup() first: a present non-object parent raises TypeError.
    """
    *parents, last = split(name)
    node = data
    for part in parents:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise TypeError(f"{part} in {name} is not an object")
    node[last] = value


def remove(data: dict[str, Any], name: str) -> None:
    """Delete a dotted name from data (in place); parents are left as they are."""
    *parents, last = split(name)
    node = data
    for part in parents:
        node = node[part]
    del node[last]


def flatten(tree: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested manifest tables as dotted leaves: TOML cannot tell `a.b = 1` from `[a] b = 1`.

    An empty table is a leaf value of its own ({}).
    """
    out: dict[str, Any] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.update(flatten(value, f"{name}."))
        else:
            out[name] = value
    return out
