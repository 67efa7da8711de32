"""Ask an index or registry for a latest version: bounded in time and size, silent on failure."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from installer.updates.config import DIST, index_json_url, registry_json_url

if TYPE_CHECKING:
    import semver

TIMEOUT = 3.0
MAX_BYTES = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Per-request time budget (seconds) and response body cap (bytes)."""

    timeout: float = TIMEOUT
    max_bytes: int = MAX_BYTES


DEFAULT_LIMITS = Limits()


def fetch_json(url: str, limits: Limits = DEFAULT_LIMITS) -> object | None:
    """GET `url` and parse its JSON; None on any failure (status, size, time, encoding, syntax)."""
    body = _within_deadline(url, limits)
    if body is None:
        return None
    import json

    try:
        data: object = json.loads(body)
    except ValueError:  # includes UnicodeDecodeError
        return None
    return data


def _within_deadline(url: str, limits: Limits) -> bytes | None:
    """The body, or None once `limits.timeout` has passed in all: connect, headers and body.

    httpx's timeouts bound each socket read, so a server that sends its header a byte a
    second never ends a request. The request runs in a daemon thread instead and is
    abandoned at the deadline (it dies with the process, having written nothing).
    """
    import threading

    box: list[bytes | None] = []

    def work() -> None:
        try:
            box.append(_fetch_bytes(url, limits))
        except Exception:  # an update check must never break or trace the command it rides on
            box.append(None)

    worker = threading.Thread(target=work, name="ext-update-fetch", daemon=True)
    worker.start()
    worker.join(limits.timeout)
    return box[0] if box else None


def _fetch_bytes(url: str, limits: Limits) -> bytes | None:
    import httpx

    from installer import __version__

    deadline = time.monotonic() + limits.timeout
    headers = {"Accept": "application/json", "User-Agent": f"extset/{__version__}"}
    with (
        httpx.Client(timeout=limits.timeout, follow_redirects=True, headers=headers) as client,
        client.stream("GET", url) as resp,
    ):
        if resp.status_code != 200:
            return None
        length = resp.headers.get("content-length", "")
        if length.isdigit() and int(length) > limits.max_bytes:
            return None
        body = bytearray()
        for chunk in resp.iter_bytes():  # decoded bytes, so a compressed bomb is capped too
            body += chunk
            if len(body) > limits.max_bytes or time.monotonic() > deadline:
                return None
        return bytes(body)


def parse_version(text: object) -> semver.Version | None:
    """A strict semver version (`MAJOR.MINOR.PATCH[-pre][+build]`); None for anything else.

    Strict on purpose: a PEP 440 spelling such as `1.0` or `1.0rc1` has no
    semver ordering we could trust, so it is ignored rather than guessed at.
    """
    if not isinstance(text, str):
        return None
    import semver

    try:
        return semver.Version.parse(text.strip())
    except (ValueError, TypeError):
        return None


def latest_from_index(base: str, limits: Limits = DEFAULT_LIMITS, dist: str = DIST) -> str | None:
    """`info.version` from `<base>/pypi/<dist>/json`, if it is semver."""
    data = fetch_json(index_json_url(base, dist), limits)
    info = data.get("info") if isinstance(data, dict) else None
    version = info.get("version") if isinstance(info, dict) else None
    return _semver_text(version)


def latest_from_registry(
    registry: str, package: str, limits: Limits = DEFAULT_LIMITS
) -> str | None:
    """`dist-tags.latest` from an npm-style registry's package document, if it is semver."""
    data = fetch_json(registry_json_url(registry, package), limits)
    tags = data.get("dist-tags") if isinstance(data, dict) else None
    version = tags.get("latest") if isinstance(tags, dict) else None
    return _semver_text(version)


def compare(current: str | None, latest: str | None) -> bool | None:
    """True when `latest` is newer than `current`; None when either is not semver."""
    have, new = parse_version(current), parse_version(latest)
    if have is None or new is None:
        return None
    return new > have


def _semver_text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and parse_version(value) is not None else None
