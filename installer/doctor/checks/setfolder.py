"""The set: found, its manifest valid, its resources present and unique, nobody else can edit it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from installer.doctor.checks.perms import listed, owned_by_others, walk, writable_by_others
from installer.doctor.finding import Finding, Skip, count, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.errors import ExtError
from installer.ground.manifest import MANIFEST_NAME
from installer.ground.shellword import shell_word
from installer.host.lines import PiLine
from installer.sets.linksout import links_out
from installer.sets.resources import (
    FOLDER,
    KINDS,
    Resource,
    broken_links,
    folder_is_item,
)

# Per folder: the kind, what makes a folder an item, and the file the fix names.
_MARKERS = {
    "extensions": (
        "extension",
        "index.ts, index.js or a package.json with pi.extensions",
        "an index.ts",
    ),
    "skills": ("skill", "SKILL.md (in it, or in folders under it)", "a SKILL.md"),
}


def found(s: Subject) -> Iterator[Finding]:
    """Where the set is and how it was chosen."""
    if s.set_root is None:
        err = s.set_error or ExtError("the set was not found")
        yield error(err.message, err.fix)
        return
    name = s.manifest.name if s.manifest else s.set_root.name
    yield ok(f"{s.set_root} ({name}, from {s.set_source})")


def manifest(s: Subject) -> Iterator[Finding]:
    """extset.toml parses and validates; each unknown key is a warning."""
    if s.set_root is None:
        raise Skip("the set was not found")
    if s.manifest is None:
        err = s.manifest_error or ExtError(f"{MANIFEST_NAME} could not be read")
        yield error(err.message, err.fix)
        return
    if s.manifest.path is None:
        yield info(f"no {MANIFEST_NAME}: the set uses the defaults (link mode, host pi)")
        return
    for line in s.manifest.warnings:
        yield warn(line, f"correct or remove the key in {s.manifest.path}")
    if not s.manifest.warnings:
        yield ok(f"{MANIFEST_NAME} is valid")


def resources(s: Subject) -> Iterator[Finding]:
    """Every resource readable and inside the set, names unique, the manifest's names real."""
    from installer.sets.pirules import read_manifest

    if s.set_root is None:
        raise Skip("the set was not found")
    problems = [*_dangling(s.set_root), *_unmarked(s.set_root, s.pi_line())]
    try:
        found = s.resources()
    except ExtError as exc:
        yield error(exc.message, exc.fix)
        yield from problems
        return
    problems += _unknown_names(s, {r.name for r in found if r.kind == "extension"})
    problems += _declarations(s.set_root, found)
    problems += _one_name_twice(s, found)
    problems += _links_out(s.set_root, found)
    yield from problems
    if not found and read_manifest(str(s.set_root), s.pi_line()) is not None:
        yield warn(
            f"the set has no resources: {s.set_root}/package.json's `pi` manifest names "
            "nothing pi loads",
            'name what pi should load in it, e.g. "pi": {"extensions": ["./extensions"]}',
        )
    elif not found:
        yield warn(f"the set has no resources: {s.set_root} holds no extensions/, skills/, …",
                   "add extensions/<name>.ts (or point --set at your set)")  # fmt: skip
    elif not any(p.level in ("warn", "error") for p in problems):
        per_kind = [(sum(r.kind == k for r in found), k) for k in KINDS]
        counts = ", ".join(count(n, kind) for n, kind in per_kind if n)
        yield ok(f"{count(len(found), 'resource')} ({counts}), names unique")


def _dangling(root: Path) -> Iterator[Finding]:
    for b in broken_links(root):
        yield error(f"{b.why}: the item cannot be installed", b.fix)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """A folder, through links; a link loop or a vanished entry is none."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _unmarked(root: Path, pi: PiLine) -> Iterator[Finding]:
    from installer.sets.pirules import read_manifest, skill_files

    if read_manifest(str(root), pi) is not None:
        # A pi package: its manifest, not these folders, says what pi loads.
        yield from _unnamed(root, pi)
        return
    for folder, (kind, markers, marker) in _MARKERS.items():
        for entry in _listing(root / folder):
            # A skills folder holding skills deeper down is a collection, not a broken skill.
            loaded = skill_files(entry.path, str(root / folder)) if kind == "skill" else ()
            if _is_dir(entry) and not loaded and not folder_is_item(Path(entry.path), kind):
                yield info(
                    f"{folder}/{entry.name} has no {markers}: not an item, ignored",
                    f"add {marker} in it to make it one",
                )


def _links_out(root: Path, found: tuple[Resource, ...]) -> list[Finding]:
    return [
        warn(out.said(), f"copy what the skill needs into the set, or remove the link: {out.rm}")
        for out in links_out(root, found)
    ]


def _one_name_twice(s: Subject, found: tuple[Resource, ...]) -> list[Finding]:
    """Two skills of the set whose frontmatter gives one name: pi (and OpenCode, Gemini CLI)
    load one of them and warn of a collision; which one, ext cannot say. (Claude Code names a
    skill by its folder: no collision there.)"""
    from installer.sets.shared_skills import skill_name

    if s.on.skill_named_by == "folder" or s.set_root is None:
        return []
    root = s.set_root
    by_name: dict[str, list[str]] = {}
    for r in found:
        if r.kind == "skill" and r.entries():
            by_name.setdefault(skill_name(r.entries()[0]), []).append(
                os.path.relpath(r.source, root)
            )
    return [
        warn(
            f"{' and '.join(sorted(places))} both name their skill {name!r} in their "
            f"frontmatter: {s.on.title} loads one of them, and warns of a collision",
            "give each its own `name:` in its SKILL.md",
        )
        for name, places in sorted(by_name.items())
        if len(places) > 1
    ]


def _declarations(root: Path, found: tuple[Resource, ...]) -> list[Finding]:
    """A `.d.ts` where pi takes every .ts for an extension: it fails to load at every start."""
    return [
        warn(
            f"{os.path.relpath(r.source, root)} is a TypeScript declaration file where pi loads "
            "every .ts as an extension: pi fails to load it at every start (it exports no factory)",
            "move it out of the extension folders (e.g. into types/), next to tsconfig.json",
        )
        for r in found
        if r.kind == "extension" and r.layout == "file" and r.filename.endswith(".d.ts")
    ]


def _unnamed(root: Path, pi: PiLine) -> Iterator[Finding]:
    """A kind folder of a pi package that its manifest does not name: pi loads none of it."""
    from installer.sets.resources import undeclared_kinds

    for key in undeclared_kinds(root, pi):
        yield warn(
            f"package.json's `pi` manifest names no {key}: pi loads none of {key}/ (a pi "
            "package loads only what its manifest names)",
            f'add "{key}": ["./{key}"] to "pi" in package.json, or move {key}/ out of the set',
        )


def _listing(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted((e for e in it if not e.name.startswith(".")), key=lambda e: e.name)
    except OSError:
        return []


def _unknown_names(s: Subject, names: set[str]) -> Iterator[Finding]:
    if s.manifest is None or s.manifest.path is None:
        return
    where = s.manifest.path
    for guard in s.manifest.guards:
        if guard not in names:
            yield warn(f"[guards.{guard}] names no extension of the set", f"correct it in {where}")
    for name, needs in s.manifest.requires.items():
        for missing in [n for n in (name, *needs) if n not in names]:
            yield warn(
                f"[extensions.{name}] names {missing!r}, which is no extension of the set",
                f"correct it in {where}",
            )


def permissions(s: Subject) -> Iterator[Finding]:
    """A set folder or file that group or others may write: anyone could run code as you."""
    if s.set_root is None:
        raise Skip("the set was not found")
    paths = [s.set_root, s.set_root / MANIFEST_NAME]
    for folder in FOLDER.values():
        if (s.set_root / folder).is_dir():
            paths += walk(s.set_root / folder)
    paths = list(dict.fromkeys([*paths, *_package_paths(s, s.set_root)]))
    loose = writable_by_others(paths)
    if loose:
        yield warn(
            f"writable by group or others: {listed(loose)}; extensions run with your full "
            "rights, so whoever can edit them can run code as you",
            f"chmod -R go-w {shell_word(s.set_root)}",
        )
    strangers = owned_by_others(paths)
    if strangers:
        yield warn(
            f"owned by another user: {listed(strangers)}; that user can change what runs as you",
            f"take ownership (chown -R $USER {s.set_root}) or install a copy you own",
        )
    if not loose and not strangers:
        yield ok(f"only you can change the set ({len(paths)} paths checked)")


def _package_paths(s: Subject, root: Path) -> list[Path]:
    """A pi package's manifest and what it names, wherever in the set that lies."""
    from installer.sets.pirules import read_manifest

    if read_manifest(str(root), s.pi_line()) is None:
        return []
    try:
        resources = s.resources()
    except ExtError:
        return []  # the resources check says why
    paths = [root / "package.json"]
    for r in resources:
        if not r.unlinkable.startswith("it lies outside"):
            paths += list(walk(Path(r.source))) if r.layout == "dir" else [Path(r.source)]
    return paths


def dependencies(s: Subject) -> Iterator[Finding]:
    """A warning per extension whose package.json names npm packages Node would not find."""
    from installer.doctor.checks.loaded import package_extensions
    from installer.sets.dependencies import missing

    if s.set_root is None:
        raise Skip("no set (see set)")
    root = s.set_root
    said: set[Path] = set()
    pi = s.pi_line()
    for ext in package_extensions(root, pi):
        lost = missing(ext.entry, root, pi)
        if lost is None or lost.manifest in said:
            continue
        said.add(lost.manifest)
        names = ", ".join(lost.names[:3]) + (" …" if len(lost.names) > 3 else "")
        yield warn(
            f"{ext.label}: {lost.manifest} needs {names}, which no node_modules/ holds: pi "
            "cannot load it (Cannot find module)",
            lost.fix,
        )
    if not said:
        yield ok("every npm dependency the set's extensions declare is installed")
