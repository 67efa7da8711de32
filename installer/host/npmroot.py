"""Where npm put a pi: a global install (`<prefix>/lib/node_modules`) or a local one (a
folder's own `node_modules`, as scripts/setup makes in `.cache/`), and the npm command that
installs into the same place. The update check (installer.updates.hostmethod) and the fixes
of the drift warning and the Node check name the same command."""

from __future__ import annotations

import shlex
from pathlib import Path


def node_modules_root(path: Path, package: str) -> Path | None:
    """The folder whose `node_modules/<package>` holds `path` (innermost match)."""
    want = ("node_modules", *package.split("/"))
    parts = path.parts
    for i in range(len(parts) - len(want), -1, -1):
        if parts[i : i + len(want)] == want:
            return Path(*parts[:i])
    return None


def is_global(folder: Path, npm_prefix: Path | None = None) -> bool:
    """npm's global layout: `<prefix>/lib/node_modules` (`<prefix>/node_modules` on Windows).

    Without npm's prefix at hand, a `lib` folder is a global prefix's unless it holds a
    package.json: `npm --prefix FOLDER install` writes one there, a global install never
    does (a prefix of one's own, `npm_config_prefix`, has no npm beside it to tell by)."""
    if npm_prefix is not None:
        prefix = npm_prefix.resolve()
        if folder.resolve() in (prefix / "lib", prefix):
            return True
    return folder.name == "lib" and not (folder / "package.json").exists()


def npm_command(verb: str, spec: str, resolved: Path | None, package: str | None) -> str:
    """`npm install -g SPEC` for a global pi (or one whose place is unknown), `npm --prefix
    FOLDER install SPEC` for a pi in a folder's own node_modules."""
    folder = node_modules_root(resolved, package) if resolved is not None and package else None
    if folder is None or is_global(folder):
        return shlex.join(["npm", verb, "-g", spec])
    return shlex.join(["npm", "--prefix", str(folder), verb, spec])
