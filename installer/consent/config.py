"""A project's hook configuration: collected from its sources, canonicalised, hashed."""

from __future__ import annotations

import json
import os
import stat
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
from installer.consent.limits import (
    MAX_CONFIG_BYTES,
    MAX_NESTING,
    MAX_SOURCE_BYTES,
    too_deep,
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
        if os.path.lexists(path):
            text = read_text(path, project)
            entries.append((name, hooks_of(text, str(path), whole_file=name in WHOLE_FILE_SOURCES)))
    config = build_config(entries)
    if len(config.canonical) > MAX_CONFIG_BYTES:
        raise ExtError(
            f"the hooks in {project} come to {len(config.canonical)} bytes, over the "
            f"{MAX_CONFIG_BYTES >> 10} KiB an approval may record",
            fix="keep the hook definitions short: put long commands in a script the hook runs",
        )
    return config


def read_text(path: Path, project: Path | None = None) -> str:
    """A source file's text, or an ExtError naming the file and the fix.

    Never waits and never follows a link out of the project: a FIFO, a device or a link
    to one (`/dev/zero`) is refused, and so is a file over MAX_SOURCE_BYTES."""
    try:
        data = _read_capped(path, project)
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExtError(
            f"{path} is not UTF-8 text (byte {exc.start})",
            fix=f"save {path} as UTF-8, then run the command again",
        ) from exc
    except OSError as exc:
        raise ExtError(
            f"cannot read {path}: {exc.strerror or exc}",
            fix=f"make {path} a regular file in the project, under "
            f"{MAX_SOURCE_BYTES >> 10} KiB, then run the command again",
        ) from exc


def _read_capped(path: Path, project: Path | None) -> bytes:
    target = path
    if os.path.islink(path) or project is not None:
        # A linked `.claude/` leads out of the project as surely as a linked file does.
        target = Path(os.path.realpath(path))
        root = Path(os.path.realpath(project if project is not None else path.parent))
        if not target.is_relative_to(root) or not os.path.lexists(target):
            raise OSError(0, f"a symlink to {target}, outside the project or missing")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(target, flags)  # O_NONBLOCK: a FIFO would wait for a writer forever
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(0, "not a regular file")
        data = handle.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise OSError(0, f"over {MAX_SOURCE_BYTES >> 10} KiB, the most a hook file may hold")
    return data


def _parse(text: str, label: str) -> Any:
    if too_deep(text):
        raise ExtError(
            f"{label} nests arrays or objects more than {MAX_NESTING} levels deep",
            fix=f"flatten {label}: hooks nest four levels deep",
        )
    try:
        document = loads_like_js(text)
    except json.JSONDecodeError as exc:
        raise ExtError(
            f"{label} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
            fix=f"fix line {exc.lineno} of {label}, then run the command again",
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
        f"{label} holds a value JSON cannot carry exactly: {exc}",
        fix=f"remove NaN, Infinity or unpaired \\uD800-style escapes from {label}",
    )


def _shape_error(label: str, what: str, found: object) -> ExtError:
    kind = type(found).__name__ if found is not None else "null"
    return ExtError(
        f"{label} {what} (found {kind})",
        fix=f"make the hooks in {label} an object of events, as in "
        '{"hooks": {"PreToolUse": [...]}}',
    )
