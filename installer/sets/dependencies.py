"""The npm dependencies an extension of the set declares and Node would not find: its
package.json names them, and no node_modules/ on the way up from the extension holds them (a
clone without `npm install`, or a folder ext adopted: node_modules/ stays out of the copy).
pi then fails to load it with `Cannot find module`; this says so before pi is started."""

from __future__ import annotations

import os
from pathlib import Path

from installer.ground.readfile import read_text
from installer.ground.records import NamedTuple
from installer.host.lines import PiLine
from installer.sets.link_imports import ALIASED, package_above


class Missing(NamedTuple):
    """The package.json whose dependencies are missing, and which."""

    manifest: Path
    names: tuple[str, ...]

    @property
    def fix(self) -> str:
        """The install that brings them."""
        from installer.ground.shellword import shell_word

        return f"cd {shell_word(self.manifest.parent)} && npm install"


def missing(entry: Path, set_root: Path, pi: PiLine | None = None) -> Missing | None:
    """What the package.json nearest `entry` (up to the set's root) declares in `dependencies`
    that Node's lookup from the entry's folder (each node_modules/ up to the file system's
    root) would not find; None when nothing is missing or there is no such package.json.
    What pi gives every extension itself (its own packages of the scopes the line `pi` maps,
    `typebox`) is never missing."""
    manifest = _nearest(entry.parent, set_root)
    if manifest is None:
        return None
    from installer.ground.jsondepth import loads

    try:
        declared = loads(read_text(manifest)).get("dependencies")
    except (OSError, ValueError, AttributeError):
        return None  # set.resources and pi's own loader say what is wrong with it
    if not isinstance(declared, dict):
        return None
    folder = Path(os.path.realpath(entry.parent))  # Node looks up from where the file is
    lost = tuple(
        n
        for n in declared
        if isinstance(n, str) and not _given_by_pi(n, pi) and package_above(folder, n) is None
    )
    return Missing(manifest, lost) if lost else None


def _given_by_pi(name: str, pi: PiLine | None) -> bool:
    """pi's loader maps these onto its own copies, whatever node_modules holds."""
    from installer.host.lines import line_of

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
