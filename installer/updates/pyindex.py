"""ext's newest release on a Python package index, asked as pip would find it.

PyPI and Warehouse serve a JSON API (`<root>/pypi/extset/json`); every index serves the
Simple API at `<index-url>/extset/` (PEP 691's JSON, or PEP 503's HTML page of files), which
is all a private index (devpi, a proxy, a folder served over HTTP) may have. The JSON API is
asked first; the Simple API when the index answered without it. An index that answers
neither way with a release ext can read is said as that, not as a network fault (helper-40:
a PEP 503 index was told "no valid answer; check the network" while pip read it).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from installer.ground.records import NamedTuple
from installer.updates.config import DIST, index_json_url
from installer.updates.fetch import DEFAULT_LIMITS, Limits, fetch

# PEP 691: the JSON form first, the HTML form (PEP 503) as well.
SIMPLE_ACCEPT = "application/vnd.pypi.simple.v1+json, text/html;q=0.1"
_ARCHIVES = (".whl", ".tar.gz", ".zip")


class IndexAnswer(NamedTuple):
    """The newest release (None: none ext can read); whether the index answered at all; and
    whether its answer was that it has no such project (404 both ways)."""

    latest: str | None
    answered: bool
    missing: bool = False


def latest_on_index(
    base: str, limits: Limits = DEFAULT_LIMITS, simple: str | None = None, dist: str = DIST
) -> IndexAnswer:
    """What the index says is the newest release of `dist` (strict semver, no pre-release):
    `base` its root (the JSON API's), `simple` the URL pip takes (its Simple API's; default
    `base`)."""
    api = fetch(index_json_url(base, dist), limits)
    latest = _from_json_api(api.body)
    if latest is not None:
        return IndexAnswer(latest, True)
    if api.status is None:
        return IndexAnswer(None, False)  # no answer (offline): not a second wait
    page = fetch(simple_url(simple or base, dist), limits, SIMPLE_ACCEPT)
    if page.status == 404 and api.status == 404:
        return IndexAnswer(None, True, missing=True)
    return IndexAnswer(_newest(files(page.body, dist)) if page.body else None, True)


def simple_url(base: str, dist: str = DIST) -> str:
    """The Simple API page of `dist` under an index URL (pip's index-url is its root)."""
    return f"{base.rstrip('/')}/{normalized(dist)}/"


def normalized(name: str) -> str:
    """PEP 503's name: runs of `-`, `_` and `.` as one `-`, lower case."""
    return re.sub(r"[-_.]+", "-", name).lower()


def files(body: bytes, dist: str = DIST) -> list[str]:
    """The versions of `dist`'s files on a Simple API page (JSON or HTML), yanked ones left
    out."""
    text = body.decode("utf-8", errors="replace")
    names: list[str] = []
    if text.lstrip().startswith("{"):
        import json

        try:
            data = json.loads(text)
        except ValueError:
            return []
        entries = data.get("files") if isinstance(data, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and not entry.get("yanked"):
                name = entry.get("filename")
                names += [name] if isinstance(name, str) else []
    else:
        page = _Links()
        page.feed(text)
        names = page.files
    found = (_version_of(n, dist) for n in names)
    return [v for v in found if v is not None]


def _version_of(filename: str, dist: str) -> str | None:
    """`extset-0.2.0-py3-none-any.whl` and `extset-0.2.0.tar.gz` -> `0.2.0`."""
    stem = next((filename[: -len(a)] for a in _ARCHIVES if filename.endswith(a)), None)
    if stem is None:
        return None
    if filename.endswith(".whl"):
        parts = stem.split("-")
        name, version = (parts[0], parts[1]) if len(parts) >= 5 else ("", "")
    else:
        name, _, version = stem.rpartition("-")
    return version if normalized(name) == normalized(dist) and version else None


def _newest(versions: list[str]) -> str | None:
    from installer.host.versions import newest_in

    return newest_in(versions, "*")  # strict semver only; npm's "*" takes no pre-release


def _from_json_api(body: bytes | None) -> str | None:
    """`info.version` of the JSON API's document, if it is strict semver."""
    if body is None:
        return None
    import json

    from installer.host.versions import parse_version

    try:
        data = json.loads(body)
    except ValueError:
        return None
    info = data.get("info") if isinstance(data, dict) else None
    version = info.get("version") if isinstance(info, dict) else None
    return version.strip() if isinstance(version, str) and parse_version(version) else None


class _Links(HTMLParser):
    """The text of each `<a>` of a PEP 503 page, but a yanked file's (`data-yanked`)."""

    def __init__(self) -> None:
        super().__init__()
        self.files: list[str] = []
        self._in: bool | None = None  # inside an <a>: whether to keep its text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._in = not any(name == "data-yanked" for name, _ in attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in:
            self.files.append(data.strip())
