"""A project's hook configuration: collected from its sources, canonicalised, hashed."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from installer.consent.canonical import (
    NotCanonicalizable,
    canonical_bytes,
    digest,
    loads_like_js,
)
from installer.ground.errors import ExtError

# Fixed order: the order they are listed in, combined under these names.
PROJECT_SOURCES = (".claude/settings.json", ".claude/settings.local.json", ".pi/hooks.json")
# Sources that may hold the hooks object itself rather than a `hooks` key.
WHOLE_FILE_SOURCES = frozenset({".pi/hooks.json"})


@dataclass(frozen=True)
class HookConfig:
    """Hooks per source name; `sha256` is None when there is nothing to approve."""

    sources: tuple[str, ...]
    config: dict[str, Any]
    canonical: bytes
    sha256: str | None

    @property
    def is_empty(self) -> bool:
        """True when no source holds any hooks."""
        return not self.sources

    def as_json(self) -> dict[str, Any]:
        """The canonical config as a plain JSON object (canonical key order)."""
        return dict(json.loads(self.canonical)) if self.sources else {}


def build_config(entries: Iterable[tuple[str, dict[str, Any] | None]]) -> HookConfig:
    """Combine (source name, hooks) pairs, skipping sources without hooks, and hash them."""
    config = {name: hooks for name, hooks in entries if hooks}
    if not config:
        return HookConfig(sources=(), config={}, canonical=b"", sha256=None)
    canonical = canonical_bytes(config)
    return HookConfig(tuple(config), config, canonical, digest(canonical))


def hooks_of(text: str, label: str, *, whole_file: bool) -> dict[str, Any] | None:
    """The hooks object in one source's text, or None when it has none.

    `label` names the file in errors; `whole_file` lets a file without a `hooks`
    key be the hooks object itself.
    """
    document = _parse(text, label)
    if not isinstance(document, dict):
        raise _shape_error(label, "must hold a JSON object", document)
    if "hooks" in document:
        hooks = document["hooks"]
    elif whole_file:
        hooks = document
    else:
        return None
    if hooks is None:
        return None
    if not isinstance(hooks, dict):
        raise _shape_error(label, "has a `hooks` value that is not an object", hooks)
    return hooks or None


def read_project(project: Path) -> HookConfig:
    """Collect the hook configuration of the project folder from its fixed sources."""
    entries = []
    for name in PROJECT_SOURCES:
        path = project / name
        if path.exists():
            text = read_text(path)
            entries.append((name, hooks_of(text, str(path), whole_file=name in WHOLE_FILE_SOURCES)))
    return build_config(entries)


def read_text(path: Path) -> str:
    """A source file's text, or an ExtError naming the file and the fix."""
    try:
        if not path.is_file():  # a FIFO would wait for a writer forever
            raise OSError(0, "not a regular file")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ExtError(
            f"{path} is not UTF-8 text (byte {exc.start}).",
            fix=f"Save {path} as UTF-8, then run the command again.",
        ) from exc
    except OSError as exc:
        raise ExtError(
            f"Cannot read {path}: {exc.strerror or exc}.",
            fix=f"Make {path} a readable file, then run the command again.",
        ) from exc


def _parse(text: str, label: str) -> Any:
    try:
        document = loads_like_js(text)
    except json.JSONDecodeError as exc:
        raise ExtError(
            f"{label} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.",
            fix=f"Fix line {exc.lineno} of {label}, then run the command again.",
        ) from exc
    except NotCanonicalizable as exc:
        raise _value_error(label, exc) from exc
    try:
        canonical_bytes(document)
    except NotCanonicalizable as exc:
        raise _value_error(label, exc) from exc
    return document


def _value_error(label: str, exc: NotCanonicalizable) -> ExtError:
    return ExtError(
        f"{label} holds a value JSON cannot carry exactly: {exc}.",
        fix=f"Remove NaN, Infinity or unpaired \\uD800-style escapes from {label}.",
    )


def _shape_error(label: str, what: str, found: object) -> ExtError:
    kind = type(found).__name__ if found is not None else "null"
    return ExtError(
        f"{label} {what} (found {kind}).",
        fix=f"Make the hooks in {label} an object of events, as in "
        '{"hooks": {"PreToolUse": [...]}}.',
    )
