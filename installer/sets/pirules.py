"""pi's own rules for what a package (a set) holds, as pi 0.73.1 and 1.6.0 apply them.

Read from pi's `dist/core/package-manager.js`: `collectPackageResources` (a root `package.json`
with a `pi` manifest replaces the conventional folders), `resolveExtensionEntries` (a folder is
an extension through its own `pi.extensions`, else `index.ts`, else `index.js`),
`collectAutoExtensionEntries`, `collectSkillEntries` (a folder holding `SKILL.md` is one skill
and is not searched further; `.md` files count only at the top), `collectFiles` (prompts and
themes: recursive), `collectFilesFromManifestEntries` (paths and globs) and `applyPatterns`
(`!glob` excludes, `+path` forces in, `-path` forces out: installer/sets/pipatterns.py). Every walk
skips dot entries, `node_modules`, and what a `.gitignore`, `.ignore` or `.fdignore` met on
the way leaves out.

Paths stay as pi builds them (joined, not resolved): filters are matched against them.

One rule differs by line (installer/host/lines.py `bare_pi_key`): a root `pi` key with no
resource field is a manifest naming nothing on 0.73, and no manifest at all on 1.x
(`readPiManifest` in dist/core/pi-manifest.js keeps only the resource fields that are lists
of strings; `hasManifestResourceFields` in dist/core/package-manager.js), which then
discovers the conventional folders. A folder extension's own `pi` key is read alike by both
lines: only its `extensions` counts, else index.ts, else index.js (`resolveExtensionEntries`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from installer.ground.records import NamedTuple
from installer.host.lines import TODAY, PiLine
from installer.sets.pipatterns import (
    IGNORE_FILES,
    MAX_DEPTH,
    Ignore,
    apply_patterns,
    glob,
    is_override,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    Layout = Literal["file", "dir"]

KEYS = ("extensions", "skills", "prompts", "themes")
# The files pi takes as items, per folder: ext's one table of them (the first is what `ext add`
# writes). Skills are also SKILL.md folders, extensions also folders with an entry.
SUFFIXES = {
    "extensions": (".ts", ".js"),
    "skills": (".md",),
    "prompts": (".md",),
    "themes": (".json",),
}


class Found(NamedTuple):
    """One item as pi meets it: the file or folder, and the files pi loads for it."""

    path: str
    layout: Layout
    entries: tuple[str, ...]
    partial: bool = False  # a manifest pattern left out some of a folder's entries
    linked: bool = False  # a link on the way down from the folder searched: resolve the path


def read_manifest(root: str, pi: PiLine = TODAY) -> Any:
    """The `pi` value of root's package.json when the line `pi` uses it as a manifest, else
    None: then that pi discovers the conventional folders."""
    value = read_pi_key(root)
    if value is None or pi.bare_pi_key == "nothing":
        return value
    fields = {k: v for k in KEYS if isinstance(value, dict) and _strings(v := value.get(k))}
    return fields or None


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


NAMES_PI = re.compile(r'"pi"\s*:')  # a package.json that names a pi manifest, read or not


def read_pi_key(root: str) -> Any:
    """The `pi` value of root's package.json as pi 0.73 reads it, whatever it holds; None
    when there is none (or it is null, false, 0 or "")."""
    path = os.path.join(root, "package.json")
    from installer.ground.readfile import read_text

    try:
        text = read_text(path)
    except (OSError, ValueError):
        return None
    from installer.ground.jsondepth import loads, refused_deep, too_deep

    if too_deep(text) and NAMES_PI.search(text):  # any folder above is asked (helper-80)
        from installer.ground.errors import UsageError

        raise UsageError(*refused_deep(path))
    try:
        data = loads(text, parse_constant=_not_json)
    except ValueError:
        return None
    manifest = data.get("pi") if isinstance(data, dict) else None
    # pi: `pkg.pi ?? null`, then `if (manifest)`: JavaScript's truth, where {} and [] are true
    # (a manifest that names nothing), and only null, false, 0 and "" are not.
    return None if manifest in (None, False, 0, "") else manifest


def _not_json(word: str) -> Any:
    """NaN and Infinity: Python reads them, JSON.parse throws (and pi then has no manifest)."""
    raise ValueError(f"{word} is not JSON")


def manifest_list(manifest: Any, key: str) -> list[str] | None:
    value = manifest.get(key) if isinstance(manifest, dict) else None
    if not isinstance(value, list):
        return None
    return [v for v in value if isinstance(v, str)]


def _refuse_a_string_of_entries(folder: str, manifest: Any) -> None:
    """A folder extension's `pi.extensions` written as a string: pi 1.x reads no entries from
    it, pi 0.73 one per character (`for (const extPath of manifest.extensions)`), and loads
    each that names something there: `.`, `/`, a file `a` (helper-92: a FIFO `a` hung pi
    0.73 past its SIGTERM, unjudged). Refused, on either pi, only when a character names
    something: a list is what both read alike."""
    value = manifest.get("extensions") if isinstance(manifest, dict) else None
    if not isinstance(value, str):
        return
    named = [c for c in dict.fromkeys(value) if os.path.lexists(os.path.join(folder, c))]
    if named:
        import json

        from installer.ground.errors import UsageError

        pkg = os.path.join(folder, "package.json")
        cut = value if len(value) <= 40 else value[:39] + "…"  # helper-93: 100 KB, thrice
        shown = json.dumps(cut, ensure_ascii=False)
        raise UsageError(
            f"{pkg}: pi.extensions is a string ({shown}), which pi 0.73 reads one character at "
            f"a time, as the paths {', '.join(repr(c) for c in named)}",
            f'write it as a list of paths in {pkg}: "extensions": [{shown}]',
        )


def _listing(folder: str, ig: Ignore | None, root: str) -> list[os.DirEntry[str]]:
    """The folder's entries, sorted; its ignore files read into ig on the way."""
    try:
        entries = sorted(os.scandir(folder), key=_name)
    except OSError:
        return []
    if ig is not None and any(e.name in IGNORE_FILES for e in entries):
        ig.add(folder, root, {e.name for e in entries})
    return entries


def _children(folder: str, ig: Ignore, root: str) -> list[tuple[str, bool, bool, bool]]:
    """(path, is_dir, is_file, is_link) of what pi looks at: no dot names, no node_modules,
    nothing an ignore file of the walk leaves out."""
    out = []
    for e in _listing(folder, ig, root):
        if e.name.startswith(".") or e.name == "node_modules":
            continue
        path = f"{folder}/{e.name}"
        try:
            is_dir, is_file = e.is_dir(), e.is_file()  # follows a link, as pi's statSync does
        except OSError:
            continue
        if ig.rules and ig.ignores(path[len(root) + 1 :], is_dir):
            continue
        out.append((path, is_dir, is_file, e.is_symlink()))
    return out


def extension_entries(folder: str) -> tuple[str, ...] | None:
    """The files pi loads a folder extension from, or None when the folder is not one."""
    manifest = read_pi_key(folder) if os.path.exists(f"{folder}/package.json") else None
    _refuse_a_string_of_entries(folder, manifest)
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
    ig = Ignore()  # only this folder's own ignore files count here, as in pi
    suffixes = SUFFIXES["extensions"]
    # The hot loop of a no-op install of a big set: DirEntry answers from its cache.
    for e in _listing(folder, ig, folder):
        name = e.name
        if name[0] == "." or name == "node_modules":
            continue
        path = f"{folder}/{name}"
        try:
            if ig.rules and ig.ignores(name, e.is_dir()):
                continue
            if name.endswith(suffixes) and e.is_file():
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
    """collectSkillEntries in "pi" mode: SKILL.md stops the search; top-level .md files count.
    `top`: where pi's walk begins, above `folder`: the ignore files of the folders between
    count, as in pi's own walk (helper-61: doctor walked skills/g2 without skills/.ignore)."""
    ig = Ignore()
    if top is not None and top != folder:
        between = os.path.relpath(os.path.dirname(folder), top).split(os.sep)
        at = top
        for part in ["", *between] if between != ["."] else [""]:
            at = os.path.join(at, part) if part else at
            try:
                ig.add(at, top, set(os.listdir(at)))
            except OSError:
                break
    walk = _Walk(folder if top is None else top, ig, entered={})
    return [p for p, _ in walk.skills(folder, False)]


def agents_skill_files(folder: str) -> list[str]:
    """collectSkillEntries in "agents" mode (a `.agents/skills` folder): SKILL.md stops the
    search; .md files count below the top, not at it."""
    walk = _Walk(folder, Ignore(), agents=True, entered={})
    return [p for p, _ in walk.skills(folder, False)]


def _kernel(path: str) -> bool:
    """Whether a real path is in the kernel's folders (/dev/shm is a file system like any)."""
    return f"{path}/".startswith(("/proc/", "/sys/", "/dev/")) and not f"{path}/".startswith(
        "/dev/shm/"  # noqa: S108 (a name compared, not a file made)
    )


def ignore_line(rel: str) -> str:
    """A path as an ignore file's line that matches it alone: `\\` before each character a
    line reads otherwise (`*?[]\\`, a leading `#` or `!`, a trailing space; helper-61: `#up`
    was read as a comment, `g1/[k]` as a class)."""
    out = "".join(f"\\{c}" if c in "*?[]\\" else c for c in rel)
    if out[:1] in ("#", "!"):
        out = f"\\{out}"
    return f"{out[:-1]}\\ " if out.endswith(" ") else out


_THROUGH_LINKS = 10_000  # folders a walk may enter below links


class _Walk(NamedTuple):
    """One recursive walk of pi's: where it began, and the ignore rules gathered so far."""

    root: str
    ig: Ignore
    agents: bool = False  # "agents" mode: .md files count below the top instead of at it
    # {"": folders entered below links so far, folder: its real path} (made per walk)
    entered: dict[str, Any] | None = None

    def skills(self, folder: str, linked: bool, depth: int = 0) -> list[tuple[str, bool]]:
        self.deep_enough(folder, depth)
        children = _children(folder, self.ig, self.root)
        for path, _is_dir, is_file, _link in children:
            if is_file and path.endswith("/SKILL.md"):
                return [(path, linked)]
        out = []
        loose = (folder == self.root) != self.agents  # where a bare .md file is a skill
        for path, is_dir, is_file, is_link in children:
            if loose and is_file and path.endswith(SUFFIXES["skills"]):
                out.append((path, linked or is_link))
            elif is_dir:
                self.may_enter(path, is_link, linked)
                out.extend(self.skills(path, linked or is_link, depth + 1))
        return out

    def files(
        self, folder: str, suffixes: tuple[str, ...], linked: bool, depth: int = 0
    ) -> list[tuple[str, bool]]:
        """collectFiles: every file with one of the suffixes, recursively."""
        self.deep_enough(folder, depth)
        out = []
        for path, is_dir, is_file, is_link in _children(folder, self.ig, self.root):
            if is_dir:
                self.may_enter(path, is_link, linked)
                out.extend(self.files(path, suffixes, linked or is_link, depth + 1))
            elif is_file and path.endswith(suffixes):
                out.append((path, linked or is_link))
        return out

    def may_enter(self, path: str, is_link: bool, linked: bool) -> None:
        """Refuse a folder the walk would never end in, or take seconds over, reached
        through a link (helper-57, pi walks it too and would hang or run out of memory): a
        link back to a folder it is in (a loop: `..`, `/`), one into the kernel's folders,
        or more than _THROUGH_LINKS folders entered below links in one walk (folders linked
        to the next three times over: 3^40 paths; a link to /usr). A folder many links lead
        to is no loop (helper-59: 17 skill groups linking one shared folder were refused).
        A usage error (exit 2), with the link to remove and the `.ignore` line that skips it."""
        if not (is_link or linked):
            return
        from installer.ground.errors import UsageError

        rel = path[len(self.root) + 1 :]  # as the walk's ignore rules match it
        fix = f"leave it out with a line `{ignore_line(rel)}` in {self.root}/.ignore"
        if is_link:
            # the folder walked, resolved once; the link's target from there (realpath of a
            # path through 40 links, for each, took a second a thousand folders)
            reals = self.entered if self.entered is not None else {}
            folder = os.path.dirname(path)
            here = reals.get(folder) or reals.setdefault(folder, os.path.realpath(folder))
            real = os.path.realpath(os.path.join(here, os.readlink(path)))
            # the link where it is, not the path through other links the walk took to it
            link = os.path.join(here, os.path.basename(path))
            top = reals.get(self.root) or reals.setdefault(self.root, os.path.realpath(self.root))
            if not f"{here}/".startswith(f"{top}/"):  # met out of the walk's folder, through
                link = self.first_link(rel) or link  # a link of its own: that one is to name
            fix = f"remove the link {link}, or {fix}"
            # back to a folder it is in, or to the walk's own folder or one above it (from a
            # folder outside the set: helper-61)
            loop = f"{here}/".startswith(f"{real.rstrip('/')}/")
            if loop or f"{top}/".startswith(f"{real.rstrip('/')}/"):
                raise UsageError(f"{self.root}: {rel} is a link back to {real}, a loop", fix)
            if _kernel(real):
                raise UsageError(f"{self.root}: {rel} is a link into the kernel's {real}", fix)
        entered = self.entered if self.entered is not None else {}
        entered[""] = entered.get("", 0) + 1
        if is_link:
            entered[path] = real  # what folders below it resolve from
        if entered[""] > _THROUGH_LINKS:
            why = f"more than {_THROUGH_LINKS:,} folders are reached through links ({rel})"
            raise UsageError(f"{self.root}: {why}", fix)

    def first_link(self, rel: str) -> str | None:
        """The first link on `rel` below the walk's own folder, and where it leads: the one to
        remove for a refusal met beyond it (helper-82: through `col/usr -> /usr` the fix said
        to remove /usr/bin/X11, a link of the system's)."""
        parts = rel.split("/")
        for n in range(1, len(parts)):
            path = os.path.join(self.root, *parts[:n])
            if os.path.islink(path):
                return f"{path} (to {os.path.realpath(path)})"
        return None

    def deep_enough(self, folder: str, depth: int) -> None:
        """Refuse a folder deeper than MAX_DEPTH below the walk's root: a usage error (exit 2)."""
        if depth <= MAX_DEPTH:
            return
        from installer.ground.errors import UsageError

        rel = folder[len(self.root) + 1 :]
        shown = rel if len(rel) <= 80 else f"{rel[:40]}…{rel[-30:]}"
        top = rel.partition("/")[0]
        raise UsageError(
            f"{self.root}: folders nest deeper than {MAX_DEPTH} levels ({shown})",
            f"flatten {top}/, or leave it out with a line `{ignore_line(top)}/` in "
            f"{self.root}/.ignore "
            "(pi skips it too)",
        )


def folder_items(folder: str, key: str) -> list[Found]:
    """collectResourceFiles, grouped into items: what pi loads from one folder of a kind."""
    if key == "extensions":
        return extension_items(folder)
    walk = _Walk(folder, Ignore(), entered={})
    if key == "skills":
        return [_skill(p, linked) for p, linked in walk.skills(folder, False)]
    return [Found(p, "file", (p,), linked=ln) for p, ln in walk.files(folder, SUFFIXES[key], False)]


def _skill(path: str, linked: bool = False) -> Found:
    if os.path.basename(path) == "SKILL.md":
        # The folder is the item: a link to SKILL.md itself does not make the folder a link.
        return Found(os.path.dirname(path), "dir", (path,), linked=linked)
    return Found(path, "file", (path,), linked=linked)


def path_items(path: str, key: str) -> list[Found]:
    """collectFilesFromPaths for one path: a file is an item, a folder is searched."""
    if os.path.isfile(path):
        # pi imports any file named as an extension, but loads a skill, prompt or theme file
        # only with its kind's suffix (skills.js, prompt-templates.js, theme.js).
        if key != "extensions" and not path.endswith(SUFFIXES[key]):
            return []
        return [_skill(path) if key == "skills" else Found(path, "file", (path,))]
    if os.path.isdir(path):
        return folder_items(path, key)
    return []


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
