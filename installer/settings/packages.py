"""Register mode: the set root as a local-path entry of settings.json `packages`, and its filters.

Matching follows pi 0.73.1 (`dist/core/package-manager.js`, `dist/utils/paths.js`): a source is
local unless it starts with npm:, git:, github:, http:, https: or ssh:; it is trimmed; `~`,
`~/x` and `~x` are joined onto $HOME; anything else is resolved against the folder holding
settings.json (the agent dir, not a symlinked file's target). Two entries are the same package
when they resolve to the same real folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from installer.ground.errors import ExtError
from installer.ground.records import NamedTuple
from installer.settings.jsondoc import clone

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

_REMOTE_PREFIXES = ("npm:", "git:", "github:", "http:", "https:", "ssh:")
_OURS = "-extensions/"
_KEYS = ("extensions", "skills", "prompts", "themes")

RealPath = Callable[[str], str]


class SetPackage(NamedTuple):
    """Our set as a package of one settings file: where it is, and how paths resolve there."""

    set_root: Path
    settings_dir: Path
    home: str | None = None
    realpath: RealPath = os.path.realpath

    @classmethod
    def of(cls, set_root: Path, settings_path: Path) -> SetPackage:
        """The set at set_root, registered in settings_path (a symlink is not followed)."""
        return cls(set_root, settings_path.parent)

    @property
    def source(self) -> str:
        """What register writes: the set root's absolute path."""
        return os.path.normpath(Path(self.set_root).absolute())

    def resolve(self, source: str) -> str | None:
        """The absolute path a local source names, as pi resolves it; None for npm/git/url."""
        trimmed = source.strip()
        if trimmed.startswith(_REMOTE_PREFIXES):
            return None
        if trimmed.startswith("~"):
            rest = trimmed[2:] if trimmed.startswith("~/") else trimmed[1:]
            return os.path.normpath(Path(self.home or _home()) / rest)
        return os.path.normpath(Path(self.settings_dir).absolute() / trimmed)

    def matches(self, entry: Any) -> bool:
        """True when a packages entry is a local source resolving to the set root's folder."""
        source = _source_of(entry)
        resolved = None if source is None else self.resolve(source)
        return resolved is not None and self.realpath(resolved) == self.realpath(self.source)


class PackageChange(NamedTuple):
    """New settings, and the entries of our set before and after the change."""

    settings: dict[str, Any]
    before: tuple[Any, ...]
    after: tuple[Any, ...]

    @property
    def changed(self) -> bool:
        """True when our entries differ."""
        return self.before != self.after


def _home() -> str:
    # pi uses process.env.HOME || os.homedir(); Path.home() does the same on POSIX.
    return os.environ.get("HOME") or str(Path.home())


def _source_of(entry: Any) -> str | None:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and isinstance(entry.get("source"), str):
        return str(entry["source"])
    return None


def _packages(settings: Mapping[str, Any]) -> list[Any]:
    packages = settings.get("packages", [])
    if not isinstance(packages, list):
        raise ExtError(
            '"packages" in settings.json is not a list; nothing was changed',
            fix='make "packages" a JSON list (pi reads it as one), then run the command again',
        )
    return packages


def find_entries(settings: Mapping[str, Any], ours: SetPackage) -> list[int]:
    """Indexes of the packages entries that are our set (normally none or one)."""
    return [i for i, entry in enumerate(_packages(settings)) if ours.matches(entry)]


def register(settings: Mapping[str, Any], ours: SetPackage) -> PackageChange:
    """Add the set root's absolute path to packages, unless an entry for it is already there."""
    out = clone(dict(settings))
    found = find_entries(out, ours)
    if found:
        entries = tuple(out["packages"][i] for i in found)
        return PackageChange(out, entries, entries)
    out["packages"] = [*_packages(out), ours.source]
    return PackageChange(out, (), (ours.source,))


def unregister(settings: Mapping[str, Any], ours: SetPackage) -> PackageChange:
    """Remove the entries that are our set, and nothing else."""
    out = clone(dict(settings))
    found = set(find_entries(out, ours))
    if not found:
        return PackageChange(out, (), ())
    packages = out["packages"]
    out["packages"] = [entry for i, entry in enumerate(packages) if i not in found]
    return PackageChange(out, tuple(packages[i] for i in sorted(found)), ())


def exclusion(name: str, layout: Literal["file", "dir"], entry: str = "index.ts") -> str:
    """The filter that keeps pi from loading one extension of a package.

    pi honours exact `-path`s relative to the package root: `-extensions/foo.ts` for a
    file, `-extensions/foo/index.ts` for a folder (`!extensions/foo` misses a folder one);
    a folder whose entry is `index.js` needs `-extensions/foo/index.js`.
    """
    name = name.rstrip("/")
    return f"{_OURS}{name}" if layout == "file" else f"{_OURS}{name}/{entry}"


def exclusions_of(entry: Any) -> tuple[str, ...]:
    """The exact `-path` filters an entry carries, in all four lists (none for a plain string).

    An extension's is the bare pattern; another kind's carries its key: `skills:-skills/a`.
    """
    if not isinstance(entry, dict):
        return ()
    out: list[str] = []
    for key in _KEYS:
        patterns = entry.get(key)
        if isinstance(patterns, list):
            out.extend(tag(key, p) for p in patterns if _ours(p))
    return tuple(out)


def _ours(pattern: Any) -> bool:
    return isinstance(pattern, str) and pattern.startswith("-")


def tag(key: str, pattern: str) -> str:
    """How ext names one filter of a kind: the bare pattern where its first folder names the
    kind (`-skills/a/SKILL.md`; else an extension's), else with its key (`skills:-sk/a.md`)."""
    return pattern if _inferred(pattern) == key else f"{key}:{pattern}"


def untag(f: str) -> tuple[str, str]:
    """A filter of tag's as (settings key, pattern)."""
    key, colon, pattern = f.partition(":")
    if colon and key in _KEYS:
        return key, pattern
    return _inferred(f), f


def _inferred(pattern: str) -> str:
    first = pattern.lstrip("!+-").partition("/")[0]
    return first if first in _KEYS else "extensions"


def with_exclusions(entry: Any, excluded: Iterable[str]) -> Any:
    """entry with exactly these `-path` filters; other keys and patterns kept.

    With none left in a list its key goes (pi reads [] as "load none"), and an object
    holding only its source folds back to the plain string.
    """
    wanted = list(dict.fromkeys(excluded))
    if set(exclusions_of(entry)) == set(wanted):
        return entry
    obj: dict[str, Any] = dict(entry) if isinstance(entry, dict) else {"source": entry}
    for key in _KEYS:
        mine = [p for k, p in map(untag, wanted) if k == key]
        current = obj.get(key, [])
        if not isinstance(current, list):
            raise ExtError(
                f'"{key}" of the package {obj.get("source")!r} in settings.json is not a list',
                fix="make it a list of filters (pi's docs/packages.md), then run it again",
            )
        if not mine and not any(_ours(p) for p in current):
            continue
        patterns = [p for p in current if not _ours(p)] + mine
        if patterns:
            obj[key] = patterns
        else:
            obj.pop(key, None)
    return obj["source"] if set(obj) == {"source"} else obj


def set_exclusions(
    settings: Mapping[str, Any], ours: SetPackage, excluded: Iterable[str]
) -> PackageChange:
    """Register the set if needed, and give its entry exactly these exclusion filters."""
    added = register(settings, ours)
    out = added.settings
    index = find_entries(out, ours)[0]
    before = (out["packages"][index],) if added.before else ()
    out["packages"][index] = with_exclusions(out["packages"][index], excluded)
    return PackageChange(out, before, (out["packages"][index],))


def with_blocks(
    settings: Mapping[str, Any], ours: SetPackage, blocked: Iterable[str]
) -> dict[str, Any]:
    """Our entry with `[]` for the kinds a pi package's manifest leaves out while it is an
    object (pi then falls back to their conventional folders), and without them once nothing
    else makes it one (the plain string loads none of them)."""
    blocked = tuple(blocked)
    out = dict(settings)
    found = find_entries(out, ours) if blocked else []
    if not found or not isinstance(out["packages"][found[0]], dict):
        return out
    entry = dict(out["packages"][found[0]])
    filtered = [k for k in _KEYS if k in entry and not (k in blocked and entry[k] == [])]
    for key in blocked:
        if filtered:
            entry.setdefault(key, [])
        elif entry.get(key) == []:
            del entry[key]
    out["packages"] = list(out["packages"])
    out["packages"][found[0]] = entry["source"] if set(entry) == {"source"} else entry
    return out
