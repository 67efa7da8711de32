"""Canonical JSON (RFC 8785) and the sha256 that names a hook configuration."""

from __future__ import annotations

import json
from typing import Any

from installer.ground.sha import sha256_hex

# Integers beyond this lose precision as a JavaScript number; JCS is defined on
# JavaScript numbers, so such integers are read as floats, as Node would.
_MAX_SAFE_INT = 2**53 - 1

HASH_PREFIX = "sha256:"


class NotCanonicalizable(ValueError):
    """The value has no RFC 8785 form (NaN, Infinity, a lone surrogate)."""


def loads_like_js(text: str) -> Any:
    """Parse JSON text into the values a JavaScript reader would see.

    Raises json.JSONDecodeError on invalid JSON (with line and column).
    """
    return json.loads(text, parse_int=_js_int, parse_constant=_reject_constant)


def canonical_bytes(value: object) -> bytes:
    """The RFC 8785 (JCS) serialisation of value."""
    import rfc8785

    try:
        return rfc8785.dumps(value)  # type: ignore[arg-type]
    except rfc8785.CanonicalizationError as exc:
        raise NotCanonicalizable(str(exc)) from exc


def digest(data: bytes) -> str:
    """`sha256:<hex>` of data."""
    return HASH_PREFIX + sha256_hex(data)


def short_hash(full: str) -> str:
    """The first 12 hex digits of a `sha256:<hex>` hash, for people to compare."""
    return full.removeprefix(HASH_PREFIX)[:12]


def pretty(value: object) -> str:
    """value as indented JSON in canonical key order, for a readable diff."""
    ordered = json.loads(canonical_bytes(value))
    return json.dumps(ordered, indent=2, ensure_ascii=False)


def _js_int(text: str) -> int | float:
    number = int(text)
    return number if abs(number) <= _MAX_SAFE_INT else float(text)


def _reject_constant(name: str) -> None:
    raise NotCanonicalizable(f"{name} is not a JSON value")
