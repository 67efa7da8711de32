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


def is_global(folder: Path, npm_prefix: Path | None) -> bool:
    """npm's global layout: `<prefix>/lib/node_modules` (`<prefix>/node_modules` on Windows)."""
    if npm_prefix is not None:
        prefix = npm_prefix.resolve()
        if folder.resolve() in (prefix / "lib", prefix):
            return True
    # A `lib/node_modules` beside `bin/npm` is a global one too (another node, nvm).
    return folder.name == "lib" and (folder.parent / "bin" / "npm").exists()


def npm_command(verb: str, spec: str, resolved: Path | None, package: str | None) -> str:
    """`npm install -g SPEC` for a global pi (or one whose place is unknown), `npm --prefix
    FOLDER install SPEC` for a pi in a folder's own node_modules. Any `lib/node_modules` is
    taken as global here: a prefix of one's own (`npm_config_prefix`) has no npm beside it."""
    folder = node_modules_root(resolved, package) if resolved is not None and package else None
    if folder is None or folder.name == "lib":
        return shlex.join(["npm", verb, "-g", spec])
    return shlex.join(["npm", "--prefix", str(folder), verb, spec])
