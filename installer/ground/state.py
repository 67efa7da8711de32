"""The state record `<agent>/.extset/state.json`: which set roots installed here, and how."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def state_path(agent_dir: Path) -> Path:
    return agent_dir / ".extset" / "state.json"


class SetRecord(NamedTuple):
    root: str
    name: str
    mode: str
    ext_version: str
    extra: Mapping[str, Any] = MappingProxyType({})


class State(NamedTuple):
    sets: tuple[SetRecord, ...] = ()

    def for_root(self, root: Path) -> SetRecord | None:
        return next((s for s in self.sets if s.root == str(root)), None)

    def record_of(self, root: Path, name: str) -> SetRecord | None:
        """This set's record: at its root, else at an older root it was moved from."""
        found = self.for_root(root)
        if found is not None:
            return found
        moved = [s for s in self.sets if str(s.root) in map(str, self.old_roots(root, name))]
        return moved[-1] if moved else None

    def old_roots(self, root: Path, name: str) -> list[Path]:
        """Earlier roots of the same set that are gone: their links are ours, just moved."""
        return [
            Path(s.root)
            for s in self.sets
            if s.name == name and s.root != str(root) and not Path(s.root).is_dir()
        ]

    def others(self, root: Path, name: str) -> list[SetRecord]:
        """The other sets installed here: not this one, nor an older root of it."""
        mine = {str(root), *map(str, self.old_roots(root, name))}
        return [s for s in self.sets if s.root not in mine]

    def with_set(self, record: SetRecord, drop: list[Path] | None = None) -> State:
        gone = {str(p) for p in drop or []} | {record.root}
        return State((*[s for s in self.sets if s.root not in gone], record))

    def without(self, roots: list[Path]) -> State:
        gone = {str(p) for p in roots}
        return State(tuple(s for s in self.sets if s.root not in gone))


def load_state(agent_dir: Path) -> State:
    """Read the record; a missing or unreadable one reads as empty (it only caches facts)."""
    from installer.ground import own

    try:
        text = own.read_text(state_path(agent_dir))
    except OSError:
        return State()
    if text is None:
        return State()
    try:
        data = json.loads(text)
        sets = tuple(
            SetRecord(
                root=str(s["root"]),
                name=str(s["name"]),
                mode=str(s.get("mode", "link")),
                ext_version=str(s.get("ext_version", "")),
                extra=dict(s.get("extra", {})),
            )
            for s in data.get("sets", [])
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return State()
    return State(sets)


def render_state(state: State) -> str:
    """The record's file text."""
    body = {
        "version": 1,
        "sets": [
            {
                "root": s.root,
                "name": s.name,
                "mode": s.mode,
                "ext_version": s.ext_version,
                "extra": dict(s.extra),
            }
            for s in state.sets
        ],
    }
    return json.dumps(body, indent=2) + "\n"


def write_state_text(agent_dir: Path, text: str | None) -> None:
    """Replace the record's file atomically (None removes it)."""
    from installer.ground import atomic, own

    path = state_path(agent_dir)
    if text is None:
        own.unlink(path)
        return
    own.ensure_dir(path.parent)
    own.check(path, "file")
    atomic.write_atomic(path, text)


def read_state_text(agent_dir: Path) -> str | None:
    from installer.ground import own

    return own.read_text(state_path(agent_dir))


def save_state(agent_dir: Path, state: State) -> None:
    """Write the record atomically."""
    write_state_text(agent_dir, render_state(state))
