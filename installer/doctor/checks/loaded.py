"""The extensions pi would load from an agent dir, by pi 0.73.1's own discovery rules.

`extensions/*.ts|*.js` (files or symlinks), and each folder (or link to one) with a
package.json whose `pi.extensions` names entries, else an index.ts, else an index.js;
no deeper. Plus the set itself when it is registered as a package (minus its filters).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

SOURCE_SUFFIXES = (".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", ".tsx", ".jsx")
FILES_PER_EXTENSION = 200  # a folder extension with a vendored tree: its first files suffice


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


def in_package(set_root: Path, excluded: Iterable[str]) -> list[Loaded]:
    """What pi loads from the set registered as a package, less `-extensions/…` filters."""
    off = {x.removeprefix("-") for x in excluded}
    out = []
    for entry, home in discover(set_root / "extensions"):
        rel = f"extensions/{_rel(entry, set_root / 'extensions')}"
        if rel not in off:
            out.append(Loaded(home.name.removesuffix(".ts").removesuffix(".js"), entry, home))
    return out


def _rel(entry: Path, folder: Path) -> str:
    return str(entry.relative_to(folder)) if entry.is_relative_to(folder) else str(entry)


def discover(folder: Path) -> list[tuple[Path, Path]]:
    """(entry file, extension home) for each extension pi finds in `folder`."""
    try:
        with os.scandir(folder) as it:
            listing = sorted(it, key=lambda e: e.name)
    except OSError:
        return []
    found: list[tuple[Path, Path]] = []
    for e in listing:
        path = Path(e.path)
        if (e.is_file() or e.is_symlink()) and e.name.endswith((".ts", ".js")):
            found.append((path, path))
        elif e.is_dir() or e.is_symlink():
            found += [(entry, path) for entry in _entries(path)]
    return found


def _entries(folder: Path) -> list[Path]:
    try:
        manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        declared = manifest["pi"]["extensions"]
        entries = [folder / p for p in declared if isinstance(p, str)]
        entries = [p for p in entries if p.exists()]
        if entries:
            return entries
    except (OSError, ValueError, KeyError, TypeError):
        pass
    for index in ("index.ts", "index.js"):
        if (folder / index).exists():
            return [folder / index]
    return []


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
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
