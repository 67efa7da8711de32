"""pi's own rules for what a package (a set) holds, as pi 0.73.1 applies them.

Read from pi's `dist/core/package-manager.js`: `collectPackageResources` (a root `package.json`
with a `pi` manifest replaces the conventional folders), `resolveExtensionEntries` (a folder is
an extension through its own `pi.extensions`, else `index.ts`, else `index.js`),
`collectAutoExtensionEntries`, `collectSkillEntries` (a folder holding `SKILL.md` is one skill
and is not searched further; `.md` files count only at the top), `collectFiles` (prompts and
themes: recursive), `collectFilesFromManifestEntries` (paths and globs) and `applyPatterns`
(`!glob` excludes, `+path` forces in, `-path` forces out). Every walk skips dot entries and
`node_modules`. Not followed: `.gitignore`/`.ignore`/`.fdignore` rules.

Paths stay as pi builds them (joined, not resolved): filters are matched against them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any, NamedTuple

KEYS = ("extensions", "skills", "prompts", "themes")
_SUFFIX = {
    "extensions": (".ts", ".js"),
    "skills": (".md",),
    "prompts": (".md",),
    "themes": (".json",),
}


class Found(NamedTuple):
    """One item as pi meets it: the file or folder, and the files pi loads for it."""

    path: str
    layout: str  # "file" or "dir"
    entries: tuple[str, ...]
    partial: bool = False  # a manifest pattern left out some of a folder's entries
    linked: bool = False  # a link on the way down from the folder searched: resolve the path


def read_manifest(root: str) -> Any:
    """The `pi` value of root's package.json when pi would use it as a manifest, else None."""
    path = os.path.join(root, "package.json")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    manifest = data.get("pi") if isinstance(data, dict) else None
    return manifest if manifest else None  # pi: `pkg.pi ?? null`, then `if (manifest)`


def manifest_list(manifest: Any, key: str) -> list[str] | None:
    value = manifest.get(key) if isinstance(manifest, dict) else None
    if not isinstance(value, list):
        return None
    return [v for v in value if isinstance(v, str)]


def _children(folder: str) -> list[tuple[str, bool, bool, bool]]:
    """(path, is_dir, is_file, is_link) of what pi looks at: no dot names, no node_modules."""
    try:
        entries = sorted(os.scandir(folder), key=_name)
    except OSError:
        return []
    out = []
    for e in entries:
        if e.name.startswith(".") or e.name == "node_modules":
            continue
        try:
            is_dir, is_file = e.is_dir(), e.is_file()  # follows a link, as pi's statSync does
        except OSError:
            continue
        out.append((f"{folder}/{e.name}", is_dir, is_file, e.is_symlink()))
    return out


def extension_entries(folder: str) -> tuple[str, ...] | None:
    """The files pi loads a folder extension from, or None when the folder is not one."""
    manifest = read_manifest(folder) if os.path.exists(f"{folder}/package.json") else None
    declared = manifest_list(manifest, "extensions") or []
    found = [os.path.normpath(os.path.join(folder, p)) for p in declared]
    found = [p for p in found if os.path.exists(p)]
    if found:
        return tuple(dict.fromkeys(found))
    for index in ("index.ts", "index.js"):
        if os.path.exists(f"{folder}/{index}"):
            return (f"{folder}/{index}",)
    return None


def extension_items(folder: str) -> list[Found]:
    """collectAutoExtensionEntries: a folder that is itself an extension, else its children."""
    own = extension_entries(folder)
    if own is not None:
        return [Found(folder, "dir", own)]
    out: list[Found] = []
    try:
        listing = sorted(os.scandir(folder), key=_name)
    except OSError:
        return out
    # The hot loop of a no-op install of a big set: DirEntry answers from its cache.
    for e in listing:
        name = e.name
        if name[0] == "." or name == "node_modules":
            continue
        path = f"{folder}/{name}"
        try:
            if name.endswith((".ts", ".js")) and e.is_file():
                out.append(Found(path, "file", (path,), False, e.is_symlink()))
            elif e.is_dir():
                entries = extension_entries(path)
                if entries is not None:
                    out.append(Found(path, "dir", entries, False, e.is_symlink()))
        except OSError:
            continue
    return out


def _name(e: os.DirEntry[str]) -> str:
    return e.name


def skill_files(folder: str, top: str | None = None) -> list[str]:
    """collectSkillEntries in "pi" mode: SKILL.md stops the search; top-level .md files count."""
    return [p for p, _ in _skill_walk(folder, folder if top is None else top, False)]


def _skill_walk(folder: str, top: str, linked: bool) -> list[tuple[str, bool]]:
    if os.path.isfile(f"{folder}/SKILL.md"):
        return [(f"{folder}/SKILL.md", linked)]
    out = []
    for path, is_dir, is_file, is_link in _children(folder):
        if folder == top and is_file and path.endswith(".md"):
            out.append((path, linked or is_link))
        elif is_dir:
            out.extend(_skill_walk(path, top, linked or is_link))
    return out


def _tree_walk(folder: str, suffixes: tuple[str, ...], linked: bool) -> list[tuple[str, bool]]:
    """collectFiles: every file with one of the suffixes, recursively."""
    out = []
    for path, is_dir, is_file, is_link in _children(folder):
        if is_dir:
            out.extend(_tree_walk(path, suffixes, linked or is_link))
        elif is_file and path.endswith(suffixes):
            out.append((path, linked or is_link))
    return out


def folder_items(folder: str, key: str) -> list[Found]:
    """collectResourceFiles, grouped into items: what pi loads from one folder of a kind."""
    if key == "extensions":
        return extension_items(folder)
    if key == "skills":
        return [_skill(p, linked) for p, linked in _skill_walk(folder, folder, False)]
    return [Found(p, "file", (p,), linked=ln) for p, ln in _tree_walk(folder, _SUFFIX[key], False)]


def _skill(path: str, linked: bool = False) -> Found:
    if os.path.basename(path) == "SKILL.md":
        # The folder is the item: a link to SKILL.md itself does not make the folder a link.
        return Found(os.path.dirname(path), "dir", (path,), linked=linked)
    return Found(path, "file", (path,), linked=linked)


def path_items(path: str, key: str) -> list[Found]:
    """collectFilesFromPaths for one path: a file is an item, a folder is searched."""
    if os.path.isfile(path):
        return [_skill(path) if key == "skills" else Found(path, "file", (path,))]
    if os.path.isdir(path):
        return folder_items(path, key)
    return []


def is_override(pattern: str) -> bool:
    return pattern.startswith(("!", "+", "-"))


def manifest_items(entries: list[str], root: str, key: str) -> list[Found]:
    """addManifestEntries: the manifest's paths and globs, then its `!`/`+`/`-` patterns."""
    items: list[Found] = []
    for entry in entries:
        if is_override(entry):
            continue
        if "*" in entry or "?" in entry:
            paths = glob(entry, root)
        else:
            paths = [os.path.normpath(os.path.join(root, entry))]
        for path in paths:
            items.extend(path_items(path, key))
    items = _unique(items)
    patterns = [e for e in entries if is_override(e)]
    if not patterns:
        return items
    every = [f for item in items for f in item.entries]
    enabled = apply_patterns(every, patterns, root)
    out = []
    for item in items:
        kept = tuple(f for f in item.entries if f in enabled)
        if kept:
            out.append(Found(item.path, item.layout, kept, len(kept) < len(item.entries)))
    return out


def _unique(items: Iterable[Found]) -> list[Found]:
    """pi keeps the first of the same file met twice."""
    seen: set[str] = set()
    out = []
    for item in items:
        fresh = tuple(f for f in item.entries if f not in seen)
        seen.update(fresh)
        if fresh:
            out.append(item._replace(entries=fresh, partial=item.partial or fresh != item.entries))
    return out


def apply_patterns(paths: list[str], patterns: list[str], base: str) -> set[str]:
    """applyPatterns: includes (all when none), `!` excludes, `+` forces in, `-` forces out."""
    includes = [p for p in patterns if not is_override(p)]
    excludes = [p[1:] for p in patterns if p.startswith("!")]
    force_in = [p[1:] for p in patterns if p.startswith("+")]
    force_out = [p[1:] for p in patterns if p.startswith("-")]
    result = [p for p in paths if not includes or _matches_any(p, includes, base)]
    result = [p for p in result if not _matches_any(p, excludes, base)]
    result += [p for p in paths if p not in result and _matches_exact(p, force_in, base)]
    return {p for p in result if not _matches_exact(p, force_out, base)}


def _skill_forms(path: str, base: str) -> tuple[str, str, str] | None:
    if os.path.basename(path) != "SKILL.md":
        return None
    parent = os.path.dirname(path)
    return os.path.relpath(parent, base), os.path.basename(parent), parent


def _matches_any(path: str, patterns: list[str], base: str) -> bool:
    """matchesAnyPattern: the path relative to base, its name, or its whole path."""
    forms = [os.path.relpath(path, base), os.path.basename(path), path]
    skill = _skill_forms(path, base)
    if skill is not None:
        forms.extend(skill)
    return any(minimatch(f, p) for p in patterns for f in forms)


def _matches_exact(path: str, patterns: list[str], base: str) -> bool:
    """matchesAnyExactPattern: `./` dropped, then equal to the relative or whole path."""
    forms = {os.path.relpath(path, base), path}
    skill = _skill_forms(path, base)
    if skill is not None:
        forms.update((skill[0], skill[2]))
    return any((p[2:] if p.startswith("./") else p) in forms for p in patterns)


def minimatch(path: str, pattern: str) -> bool:
    """minimatch with its defaults, for the patterns a manifest or a filter uses."""
    return _regex(pattern).fullmatch(path) is not None


def _regex(pattern: str) -> Any:
    import re

    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append(r"(?:(?!\.)[^/]*/)*")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(r"(?:(?!\.)[^/]*(?:/(?!\.)[^/]*)*)?")
            i += 2
            continue
        if c == "*":
            at_start = i == 0 or pattern[i - 1] == "/"
            out.append(r"(?!\.)[^/]*" if at_start else r"[^/]*")
        elif c == "?":
            out.append(r"[^/]")
        elif c == "{" and "}" in pattern[i:]:
            end = pattern.index("}", i)
            alts = pattern[i + 1 : end].split(",")
            out.append("(?:" + "|".join(_regex(a).pattern for a in alts) + ")")
            i = end + 1
            continue
        elif c == "[" and "]" in pattern[_class_start(pattern, i) :]:
            end = pattern.index("]", _class_start(pattern, i))  # a leading `]` is literal
            out.append(_class(pattern[i + 1 : end]))
            i = end + 1
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out))


def _class_start(pattern: str, i: int) -> int:
    """Where to look for the `]` closing the class opened at i: past a leading `!` and `]`."""
    j = i + 1
    if pattern[j : j + 1] in ("!", "^"):
        j += 1
    return j + 1 if pattern[j : j + 1] == "]" else j


def _class(body: str) -> str:
    """A glob character class as a regex one: `!` or `^` negates, the rest literal but ranges."""
    negate = body[:1] in ("!", "^")
    inner = body[1:] if negate else body
    escaped = "".join(c if c == "-" else ("\\" + c if c in "\\]^[" else c) for c in inner)
    return f"[{'^' if negate else ''}{escaped}]" if escaped else "(?!)"


def glob(pattern: str, root: str) -> list[str]:
    """globSync(pattern, {cwd: root, dot: false}): the files and folders it matches.

    The walk starts below the pattern's literal folders (`src/` of `./src/*.ts`, or `../x/`),
    so a package's node_modules is not read for a glob that does not reach into it.
    """
    parts = pattern.split("/")
    fixed = 0
    while fixed < len(parts) - 1 and not any(c in parts[fixed] for c in "*?[{"):
        fixed += 1
    base = os.path.normpath(os.path.join(root, *parts[:fixed]))
    rest = "/".join(parts[fixed:])
    if not rest or not os.path.isdir(base):
        return []
    regex = _regex(rest)
    out = []
    for folder, dirs, files in os.walk(base):
        rel = os.path.relpath(folder, base)
        prefix = "" if rel == "." else f"{rel}/"
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        names = (*dirs, *sorted(files))
        if "**" not in rest and prefix.count("/") >= rest.count("/"):
            dirs[:] = []  # what lies deeper, the pattern cannot reach
        for name in names:
            if not name.startswith(".") and regex.fullmatch(prefix + name):
                out.append(f"{base}/{prefix}{name}")
    return sorted(out)
