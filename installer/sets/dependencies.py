"""The npm dependencies an extension of the set declares and Node would not find: its
package.json names them, and no node_modules/ on the way up from the extension holds them (a
clone without `npm install`, or a folder ext adopted: node_modules/ stays out of the copy).
pi then fails to load it with `Cannot find module`; this says so before pi is started."""

from __future__ import annotations

import json
import os
from pathlib import Path

from installer.ground.records import NamedTuple
from installer.host.lines import PiLine


class Missing(NamedTuple):
    """The package.json whose dependencies are missing, and which."""

    manifest: Path
    names: tuple[str, ...]


def missing(entry: Path, set_root: Path, pi: PiLine | None = None) -> Missing | None:
    """What the package.json nearest `entry` (up to the set's root) declares in `dependencies`
    that Node's lookup from the entry's folder (each node_modules/ up to the file system's
    root) would not find; None when nothing is missing or there is no such package.json.
    What pi gives every extension itself (its own packages of the scopes the line `pi` maps,
    `typebox`) is never missing."""
    manifest = _nearest(entry.parent, set_root)
    if manifest is None:
        return None
    try:
        declared = json.loads(manifest.read_text(encoding="utf-8")).get("dependencies")
    except (OSError, ValueError, AttributeError):
        return None  # set.resources and pi's own loader say what is wrong with it
    if not isinstance(declared, dict):
        return None
    lost = tuple(
        n
        for n in declared
        if isinstance(n, str) and not _given_by_pi(n, pi) and not _found(n, entry.parent)
    )
    return Missing(manifest, lost) if lost else None


def _given_by_pi(name: str, pi: PiLine | None) -> bool:
    """pi's loader maps these onto its own copies, whatever node_modules holds."""
    from installer.host.lines import line_of
    from installer.sets.link_imports import ALIASED

    scope, _, rest = name.partition("/")
    return name in ALIASED or (rest.startswith("pi-") and scope in (pi or line_of()).scopes)


def _nearest(folder: Path, set_root: Path) -> Path | None:
    root = os.path.realpath(set_root)
    at = Path(os.path.realpath(folder))
    while True:
        if (at / "package.json").is_file():
            return at / "package.json"
        if str(at) == root or at == at.parent:
            return None
        at = at.parent


def _found(name: str, folder: Path) -> bool:
    at = Path(os.path.realpath(folder))
    while True:
        if (at / "node_modules" / name).exists():
            return True
        if at == at.parent:
            return False
        at = at.parent
