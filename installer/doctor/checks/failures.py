"""What pi's complaint about an extension means, and its fix: one reading for host.load and loader.

pi reports two things through one channel (`Failed to load extension "<path>": <reason>` on
an offline start, `errors` of the SDK's loader): a load that failed, and a tool or flag that
two extensions both register (pi 0.73.1 `detectExtensionConflicts`: it keeps both loaded and
the first one's wins). The second is not a failure and is said as what it is.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from installer.doctor.finding import Finding, warn
from installer.ground.readfile import read_text
from installer.ground.records import NamedTuple
from installer.ground.shellword import shell_word
from installer.host.lines import SCOPES
from installer.sets.link_imports import package_name, resolves_from

# Mirrors loader.mjs's CONFLICT: pi's own messages, `Tool "x" conflicts with <path>`.
_CONFLICT = r'(Tool|Flag) "(.+)" conflicts with (.+)'
_MISSING_MODULE = r"Cannot find (?:module|package) '([^']+)'"


class Clash(NamedTuple):
    """A tool or flag that the extension at `real` registers after `other` already did."""

    real: str
    what: str  # tool | flag
    name: str  # the tool's name, or the flag as `--x`
    other: str  # the path pi names for the extension that registered it first


def clash(real: str, reason: str) -> Clash | None:
    """The conflict pi's reason describes, or None when it is a real load failure."""
    match = re.fullmatch(_CONFLICT, reason.strip())
    if match is None:
        return None
    return Clash(real, match.group(1).lower(), match.group(2), match.group(3))


def conflict_finding(c: Clash, label_of: dict[str, str]) -> Finding:
    """Two extensions register one tool or flag: both load, and the first one loaded wins."""
    mine = label_of.get(c.real, c.real)
    other = label_of.get(os.path.realpath(c.other), c.other)
    return warn(
        f"{c.what} {c.name} is registered by both {other} and {mine}: a conflict, not a load "
        f"failure; pi loads both and uses {other}'s",
        f"rename the {c.what} in one of them, or `ext disable` the one you do not need",
    )


def failure_fix(real: Path, reason: str, label: str | None, shown: str, set_root: str) -> str:
    """The fix for a failed load: for a missing npm module, the `npm install` to run, in the set."""
    module = re.search(_MISSING_MODULE, reason)
    other = _other_scope(module.group(1)) if module else None
    if module and other:
        # pi gives extensions its own packages; one it lacks is under the scope it is not
        # published under, and every pi loads the old scope's: npm won't help.
        return (
            f'import from "{other}" instead of "{module.group(1)}" '
            "(or use `import type` if only types are needed; see `ext doctor --check host.scope`)"
        )
    lost = _lost_by_link(shown, module.group(1), reason) if module else None
    if module and lost is not None:
        # Not a missing install: pi looked from the link's place, and the set has it.
        return (
            "this pi resolves a linked extension's imports from its link in the agent dir, "
            f"not from the set (which has it: {lost}): `ext install --mode register` loads "
            "the set in place"
        )
    if module and not module.group(1).startswith((".", "/")):
        package = package_name(module.group(1))
        folder = _package_folder(real, set_root)
        todo = "" if _declares(folder, package) else f" {package}"
        return f"cd {shell_word(Path(folder))} && npm install{todo}"
    if label:
        return f"fix the extension, or `ext disable {shell_word(label)}` until it loads"
    return f"fix or remove {shown}"


def _other_scope(module: str) -> str | None:
    """The module under the scope every pi loads (`@mariozechner/pi-x` for `@earendil-works/pi-x`);
    None for a module that is not pi's, or already is under that scope."""
    from installer.host.lines import TODAY
    from installer.sets.scan_source import portable

    scope, _, rest = module.partition("/")
    if scope not in SCOPES or not rest.startswith("pi-"):
        return None
    other = portable(module, TODAY)
    return other if other != module else None


def _package_folder(entry: Path, set_root: str) -> Path:
    """The nearest folder with a package.json above `entry`, within the set; else its folder."""
    for folder in entry.parents:
        if (folder / "package.json").is_file():
            return folder
        if str(folder) == set_root or not inside(str(folder), set_root):
            break
    return entry.parent if not inside(str(entry), set_root) else Path(set_root)


def _lost_by_link(shown: str, module: str, reason: str) -> str | None:
    """Where the set has `module` when pi did not find it, looking from a link's place (the
    require stack names the link, not its target: 0.73); None when it is not a link's loss."""
    stack = re.search(r"Require stack:\s*\n- (.+)", reason)
    importer = stack.group(1).strip() if stack else shown
    if os.path.realpath(importer) == os.path.abspath(importer):
        return None  # resolved from the real file (1.x, or register mode): really missing
    found = resolves_from(Path(os.path.realpath(importer)), module)
    return str(found) if found is not None else None


def _declares(folder: Path, package: str) -> bool:
    """True when the folder's package.json lists `package` as a dependency."""
    from installer.ground.jsondepth import loads

    try:
        data = loads(read_text(folder / "package.json"))
    except (OSError, ValueError):
        return False
    keys = ("dependencies", "optionalDependencies", "peerDependencies", "devDependencies")
    return isinstance(data, dict) and any(package in (data.get(k) or {}) for k in keys)


def inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
