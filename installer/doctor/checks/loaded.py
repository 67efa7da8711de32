"""The extensions pi would load from an agent dir, by pi's own discovery rules.

The rules are installer/sets/pirules.py's: `extensions/*.ts|*.js` (files or symlinks), and each
folder (or link to one) with a package.json whose `pi.extensions` names entries, else an
index.ts, else an index.js; no deeper. Plus the set itself when it is registered as a
package: its manifest's extensions (as the line of pi found reads the manifest), or its
extensions/ folder (minus its filters). What pi config switched off is left out by the
caller (doctor/checks/source.py), by pi's patterns.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from installer.host.lines import PiLine

from installer.sets.link_imports import FILES_PER_EXTENSION, SOURCE_SUFFIXES


@dataclass(frozen=True)
class Loaded:
    """One extension pi loads: what to call it, and the folder or file that holds its code."""

    label: str  # `extensions/notify.ts` in the agent dir, or the set's item name
    entry: Path  # the file pi imports
    home: Path  # the extension's file, or its folder


def in_agent_dir(agent_dir: Path) -> list[Loaded]:
    """What pi loads from `<agent_dir>/extensions`."""
    return [
        Loaded(f"extensions/{_rel(e, agent_dir / 'extensions')}", e, home)
        for e, home in discover(agent_dir / "extensions")
    ]


def in_package(set_root: Path, pi: PiLine, patterns: Any = None) -> list[Loaded]:
    """What the line `pi` loads from the set registered as a package, under its entry's
    `"extensions"` patterns (None: the entry has none), matched as pi matches them."""
    from installer.settings.switches import loads_in_package

    out = []
    for ext in package_extensions(set_root, pi):
        rel = Path(os.path.relpath(ext.entry, set_root)).as_posix()
        if loads_in_package(patterns, rel, str(ext.entry)):
            out.append(ext)
    return out


def package_extensions(set_root: Path, pi: PiLine) -> list[Loaded]:
    """Each file the line `pi` loads from the set as a package, named and housed as the
    resource model has it (`ext list`'s name; a manifest's `<folder>/index.ts` is the
    folder's item)."""
    from installer.ground.errors import ExtError
    from installer.sets.resources import discover as resources_of

    try:
        resources = resources_of(set_root, pi)
    except ExtError:  # set.resources says why; the files pi loads still have names
        return [Loaded(_name(home), entry, home) for entry, home in _raw(set_root, pi)]
    return [
        Loaded(r.label, Path(entry), Path(r.source))
        for r in resources
        if r.kind == "extension"
        for entry in (r.loads or r.entries())
    ]


def _raw(set_root: Path, pi: PiLine) -> list[tuple[Path, Path]]:
    """(entry file, extension home) by pi's rules alone, for a set the model refuses."""
    from installer.sets import pirules

    root = str(set_root)
    manifest = pirules.read_manifest(root, pi) if (set_root / "package.json").exists() else None
    if manifest is None:
        return discover(set_root / "extensions")
    declared = pirules.manifest_list(manifest, "extensions") or []
    items = pirules.manifest_items(declared, root, "extensions")
    return [(Path(e), Path(item.path)) for item in items for e in item.entries]


def _name(home: Path) -> str:
    """The name discover gives: `notify.ts` -> notify, `tools/index.ts` -> tools."""
    if home.name in ("index.ts", "index.js"):
        return home.parent.name
    return home.name.removesuffix(".ts").removesuffix(".js")


def _rel(entry: Path, folder: Path) -> str:
    return str(entry.relative_to(folder)) if entry.is_relative_to(folder) else str(entry)


def discover(folder: Path) -> list[tuple[Path, Path]]:
    """(entry file, extension home) for each extension pi finds in `folder`."""
    from installer.sets.pirules import extension_items

    items = extension_items(str(folder))
    return [(Path(e), Path(item.path)) for item in items for e in item.entries]


def source_files(home: Path) -> Iterator[Path]:
    """The extension's own source files: itself, or those under its folder (not node_modules)."""
    if not home.is_dir():
        if home.exists():
            yield home
        return
    seen = 0
    for dirpath, dirnames, filenames in os.walk(home, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d != "node_modules" and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES) and not name.endswith(".d.ts"):
                yield Path(dirpath, name)
                seen += 1
                if seen >= FILES_PER_EXTENSION:
                    return


def is_typescript(path: Path) -> bool:
    return path.name.endswith((".ts", ".mts", ".cts", ".tsx"))


def read_source(path: Path) -> str | None:
    """The source's text; None for what cannot be read (a FIFO, a device, over the cap)."""
    from installer.ground.readfile import read_text

    try:
        return read_text(path, errors="replace")
    except OSError:
        return None
