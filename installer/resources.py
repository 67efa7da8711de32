"""The resources of a set: what lives in its extensions/, skills/, prompts/ and themes/."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from installer.errors import ExtError, UsageError

KINDS = ("extension", "skill", "prompt", "theme")
FOLDER = {"extension": "extensions", "skill": "skills", "prompt": "prompts", "theme": "themes"}
_FILE_SUFFIXES = {
    "extension": (".ts", ".js"),
    "skill": (".md",),
    "prompt": (".md",),
    "theme": (".json",),
}
_DIR_MARKERS = {
    "extension": ("index.ts", "index.js", "package.json"),
    "skill": ("SKILL.md",),
}
_BAD_CHARS = frozenset("/\\\0")
_REFUSED = _BAD_CHARS | {chr(c) for c in (*range(32), 127)}


class Resource(NamedTuple):
    """One installable item of a set."""

    kind: str
    name: str
    filename: str  # entry name inside the kind folder: `notify.ts`, `git-checkpoint`
    layout: str  # "file" or "dir"
    source: str  # absolute path inside the set
    real: str = ""  # source with every link resolved

    @property
    def dest(self) -> str:
        """Where it goes, relative to the agent dir."""
        return f"{FOLDER[self.kind]}/{self.filename}"

    @property
    def disabled_dest(self) -> str:
        """Its disabled form: a `.off` suffix for files, parked in `.off/` for folders."""
        if self.layout == "file":
            return f"{self.dest}.off"
        return f"{FOLDER[self.kind]}/.off/{self.filename}"

    @property
    def entry(self) -> str:
        """The file pi loads a folder extension from (index.ts, else index.js)."""
        if self.layout != "dir" or os.path.exists(f"{self.source}/index.ts"):
            return "index.ts"
        return "index.js" if os.path.exists(f"{self.source}/index.js") else "index.ts"

    @property
    def label(self) -> str:
        return self.name if self.kind == "extension" else f"{self.kind}:{self.name}"


def check_name(name: str, what: str = "name") -> str:
    """Refuse a name that could address anything but one entry of one folder."""
    plain = _REFUSED.isdisjoint(name) and ".." not in name and not name.startswith("-")
    plain = plain and name.isprintable()  # no C1 control, bidi override, zero-width character
    if plain and name not in ("", "."):
        return name  # every name of a set comes through here: keep the common case cheap
    problem = None
    if not name or name in (".", ".."):
        problem = "is empty or a dot name"
    elif _BAD_CHARS & set(name) or ".." in name:
        problem = "contains '/', '\\', '..' or NUL"
    elif name.startswith("-"):
        problem = "starts with '-'"
    elif any(ord(c) < 32 or ord(c) == 127 for c in name):
        problem = "contains a control character"
    elif not name.isprintable():
        problem = _unprintable(next(c for c in name if not c.isprintable()))
    if problem:
        raise UsageError(f"{what} {name!r} {problem}", "use a plain name like 'notify'")
    return name


def _unprintable(c: str) -> str:
    """Why a character has no place in a name: it can change or hide what a screen shows."""
    import unicodedata

    code = f"U+{ord(c):04X}"
    if unicodedata.category(c) == "Cc":
        return f"contains the control character {code}, which can rewrite what a terminal shows"
    if unicodedata.bidirectional(c) in (
        "LRE",
        "RLE",
        "LRO",
        "RLO",
        "PDF",
        "LRI",
        "RLI",
        "FSI",
        "PDI",
    ):
        return f"contains the bidi control {code}, which reorders how the name is shown"
    return f"contains the invisible character {code}, which hides a difference between names"


def discover(root: Path) -> tuple[Resource, ...]:
    """Every resource of the set at root, checked for unique names and paths that stay inside."""
    real_root = root.resolve()
    found: list[Resource] = []
    for kind in KINDS:
        found.extend(_discover_kind(real_root, kind))
    _check_unique(found)
    return tuple(sorted(found))


def _discover_kind(root: Path, kind: str) -> Iterable[Resource]:
    folder = os.path.join(root, FOLDER[kind])  # per entry: str joins, not Path objects
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    # Resolved once per folder: an entry that is not a link resolves to its name under it.
    real_folder = os.path.realpath(folder)
    inside = Path(real_folder).is_relative_to(root)
    what = f"{kind} name"
    for entry in entries:
        if entry.name.startswith("."):
            continue
        resource = _classify(root, kind, entry, folder, real_folder if inside else None)
        if resource is not None:
            check_name(resource.name, what)
            yield resource


def _classify(
    root: Path, kind: str, entry: os.DirEntry[str], folder: str, real_folder: str | None
) -> Resource | None:
    path = f"{folder}/{entry.name}"
    if entry.is_dir():
        if not folder_is_item(Path(path), kind):
            return None
        layout, name = "dir", entry.name
    else:
        stem, dot, suffix = entry.name.rpartition(".")
        if not dot or f".{suffix}" not in _FILE_SUFFIXES[kind] or not entry.is_file():
            return None
        layout, name = "file", stem
    if real_folder is not None and not entry.is_symlink():
        return Resource(kind, name, entry.name, layout, path, f"{real_folder}/{entry.name}")
    real = Path(path).resolve()
    if not real.is_relative_to(root):
        raise ExtError(
            f"{kind} {entry.name!r} is a link that leads out of the set, to {real}",
            "copy the file into the set instead of linking to it",
        )
    return Resource(kind, name, entry.name, layout, path, str(real))


def folder_is_item(path: Path, kind: str) -> bool:
    """Whether pi would load this folder as an item of that kind."""
    return any(_marks(path / m) for m in _DIR_MARKERS.get(kind, ()))


def _marks(marker: Path) -> bool:
    """A folder is loaded by pi for its index file, or for a package.json with a `pi` key."""
    if marker.name != "package.json":
        return marker.is_file()
    import json

    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "pi" in data


def _check_unique(found: list[Resource]) -> None:
    seen: dict[tuple[str, str], Resource] = {}
    for r in found:
        other = seen.setdefault((r.kind, r.name), r)
        if other is not r:
            raise UsageError(
                f"two {r.kind}s are named {r.name!r}: {other.dest} and {r.dest}",
                "rename or remove one of them in the set",
            )


def select(
    resources: tuple[Resource, ...], only: list[str], skip: list[str]
) -> tuple[Resource, ...]:
    """Apply --only / --skip (--only wins); an unknown name is a usage error naming the closest."""
    for name in (*only, *skip):
        resolve_name(resources, name)
    if only:
        return tuple(r for r in resources if _matches(r, only))
    return tuple(r for r in resources if not _matches(r, skip))


def resolve_name(resources: tuple[Resource, ...], name: str) -> list[Resource]:
    """The resources a user-given name means: `notify`, `notify.ts`, or `skill:review`."""
    import difflib

    check_name(name.rpartition(":")[2])
    hits = [r for r in resources if _matches(r, [name])]
    if hits:
        return hits
    labels = sorted({r.label for r in resources})
    close = difflib.get_close_matches(name, labels, n=1, cutoff=0.5)
    fix = f"did you mean {close[0]!r}?" if close else "run `ext list` to see the names"
    raise UsageError(f"the set has no item named {name!r}", fix)


def _matches(r: Resource, names: list[str]) -> bool:
    for name in names:
        kind, _, bare = name.rpartition(":")
        if kind and kind != r.kind:
            continue
        if bare in (r.name, r.filename):
            return True
    return False
