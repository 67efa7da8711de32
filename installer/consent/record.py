"""The approvals document (version 1): parsed strictly, rendered stably.

A document this module cannot fully account for is reported as corrupt rather
than partly read, so that a later write never drops what it did not understand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import PurePath
from typing import Any

from installer.consent.limits import MAX_APPROVALS, MAX_NESTING, too_deep

VERSION = 1
_HASH = re.compile(r"sha256:[0-9a-f]{64}")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_ENTRY_KEYS = ("sha256", "approved_at", "sources", "config")


class CorruptRecord(ValueError):
    """The document is not a version 1 approvals store; the message says why."""


@dataclass(frozen=True)
class Approval:
    """One approved project: the hash, when, from which sources, and the config itself."""

    sha256: str
    approved_at: str
    sources: tuple[str, ...]
    config: dict[str, Any] = field(compare=False)

    def to_json(self) -> dict[str, Any]:
        """The entry as stored."""
        return {
            "sha256": self.sha256,
            "approved_at": self.approved_at,
            "sources": list(self.sources),
            "config": self.config,
        }


def format_time(moment: datetime) -> str:
    """ISO 8601 UTC to the second, e.g. 2026-11-29T18:00:00Z."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_document(text: str) -> dict[str, Approval]:
    """The approvals in a store's text; raises CorruptRecord on anything unexpected.

    pi's side (extensions/project-hooks/store.ts) reads by the same schema, held to
    tests/consent-store-vectors.json by both test suites."""
    if too_deep(text):
        raise CorruptRecord(f"nested more than {MAX_NESTING} levels deep")
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise CorruptRecord(f"not valid JSON ({exc.msg}, line {exc.lineno})") from exc
    if not isinstance(document, dict) or set(document) != {"version", "approvals"}:
        raise CorruptRecord('not an object with exactly "version" and "approvals"')
    version = document["version"]
    if type(version) is not int or version != VERSION:
        raise CorruptRecord(f"version {version!r}, expected {VERSION}")
    approvals = document["approvals"]
    if not isinstance(approvals, dict):
        raise CorruptRecord('"approvals" is not an object')
    if len(approvals) > MAX_APPROVALS:
        raise CorruptRecord(
            f"{len(approvals)} approvals, over the {MAX_APPROVALS} a store may hold"
        )
    return {project: _entry(project, value) for project, value in approvals.items()}


def _no_constant(name: str) -> None:
    # NaN and Infinity are not JSON: pi's JSON.parse refuses them, so ext does too.
    raise json.JSONDecodeError(f"{name} is not JSON", name, 0)


def render_document(approvals: Mapping[str, Approval]) -> bytes:
    """The store's bytes: indented UTF-8 JSON, projects sorted, final newline."""
    document = {
        "version": VERSION,
        "approvals": {key: approvals[key].to_json() for key in sorted(approvals)},
    }
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()


def _entry(project: str, value: Any) -> Approval:
    where = f"approval for {project}"
    if not PurePath(project).is_absolute():
        raise CorruptRecord(f"{where}: the project is not an absolute path")
    if not isinstance(value, dict) or set(value) != set(_ENTRY_KEYS):
        raise CorruptRecord(f"{where}: expected exactly the keys {', '.join(_ENTRY_KEYS)}")
    sha, when, sources, config = (value[key] for key in _ENTRY_KEYS)
    if not isinstance(sha, str) or not _HASH.fullmatch(sha):
        raise CorruptRecord(f'{where}: "sha256" is not sha256:<64 hex digits>')
    if not isinstance(when, str) or not _is_utc(when):
        raise CorruptRecord(f'{where}: "approved_at" is not an ISO 8601 UTC time')
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        raise CorruptRecord(f'{where}: "sources" is not a list of names')
    if not isinstance(config, dict):
        raise CorruptRecord(f'{where}: "config" is not an object')
    return Approval(sha, when, tuple(sources), config)


def _is_utc(text: str) -> bool:
    """Exactly what format_time writes (YYYY-MM-DDTHH:MM:SSZ), and a real moment."""
    if not _TIME.fullmatch(text):
        return False
    try:
        datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return False
    return True
