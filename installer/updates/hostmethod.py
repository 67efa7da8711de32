"""How pi was installed, from facts on disk and in the environment, and the command that
installs a given release of it (or of the package pi moved to)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from installer.ground.home import expand_home
from installer.host.lines import line_of
from installer.host.npmroot import is_global, node_modules_root
from installer.updates.method import InstallMethod, homebrew_formula

# What pi 1.x's own installer writes at a managed install's root, and how pi reads it
# (`getActiveManagedInstallRoot` in dist/package-manager-cli.js): the marker's fields below,
# and each release in `<root>/releases/<version>/node_modules/<package>`.
MARKER = "managed-install.json"
MARKER_FIELDS = {"kind": "pi-managed-install", "schemaVersion": 1, "layout": "releases-v1"}
SELF_UPDATE_VAR = "PI_SELF_UPDATE_COMMAND"


def detect_host_method(
    resolved: Path | None,
    package: str | None,
    env: Mapping[str, str],
    npm_prefix: Path | None,
    version: str = "latest",
    to: str | None = None,
) -> InstallMethod:
    """The host's install method from its resolved binary and npm package; its command
    installs `version` (a release or a dist-tag) of `to` (the package pi moved to; the
    installed one is removed first), else of `package`. Homebrew cannot pin a release."""
    if resolved is None or not package:
        return InstallMethod("unknown", None, "host package or path unknown")
    line = line_of(None, package)
    configured = self_update_argv(env) if line.self_update_command else None
    if configured is not None:
        return _configured(configured, to or package, version)
    managed = managed_root(resolved, env) if line.managed_install else None
    if managed is not None:
        return _managed(managed, version)
    formula = homebrew_formula(resolved, env)
    if formula is not None and version != "latest":
        return InstallMethod("homebrew", None, "a Homebrew formula")
    if formula is not None:
        return InstallMethod("homebrew", ("brew", "upgrade", formula), "a Homebrew formula")
    return _npm(resolved, package, npm_prefix, f"{to or package}@{version}")


def _npm(resolved: Path, package: str, npm_prefix: Path | None, spec: str) -> InstallMethod:
    """npm's command for a global or a local install; a package switch removes the old one."""
    folder = node_modules_root(resolved, package)
    if folder is None:
        return InstallMethod("unknown", None, "not under a node_modules folder")
    moving = not spec.startswith(f"{package}@")
    if is_global(folder, npm_prefix):
        npm: tuple[str, ...] = ("npm",)
        install, remove = (*npm, "install", "-g", spec), (*npm, "uninstall", "-g", package)
        name, detail = "npm-global", "npm -g"
    else:
        npm = ("npm", "--prefix", str(folder))
        install, remove = (*npm, "install", spec), (*npm, "uninstall", package)
        name, detail = "npm-local", f"node_modules in {folder}"
    return InstallMethod(name, install, detail, remove if moving else None)


def _configured(argv: tuple[str, ...], package: str, version: str) -> InstallMethod:
    """The user's own update command: `pi update` runs it for the latest release; a pin is
    the command itself, its placeholders filled as pi fills them
    (`makeConfiguredSelfUpdateCommand` in 1.x's dist/config.js)."""
    import shlex

    detail = f"your {SELF_UPDATE_VAR} or selfUpdateCommand ({shlex.join(argv)})"
    if version == "latest":
        return InstallMethod("pi-update-command", ("pi", "update"), f"`pi update` runs {detail}")
    if not any(p in arg for arg in argv for p in ("{version}", "{installSpec}")):
        return InstallMethod("pi-update-command", None, detail)
    values = {"packageName": package, "version": version, "installSpec": f"{package}@{version}"}
    filled = tuple(_fill(arg, values) for arg in argv)
    return InstallMethod("pi-update-command", filled, detail)


def _fill(arg: str, values: Mapping[str, str]) -> str:
    import re

    return re.sub(r"\{(packageName|version|installSpec)\}", lambda m: values[m[1]], arg)


def _managed(root: Path, version: str) -> InstallMethod:
    """`pi update` for a managed install; it installs the latest release only."""
    marker = root / MARKER
    if not _valid_marker(marker):  # pi refuses to update it too
        return InstallMethod("managed", None, f"a managed install whose {marker} is invalid")
    detail = f"a managed install in {root} (pi's installer)"
    return InstallMethod("managed", ("pi", "update") if version == "latest" else None, detail)


def managed_root(resolved: Path, env: Mapping[str, str]) -> Path | None:
    """The root of the managed install holding `resolved`, else None; its marker may be invalid.

    pi knows its root from PI_MANAGED_INSTALL_ROOT, which its launcher sets; a shell (and so
    ext) may lack it, and then the root is the folder above `releases/` that holds a marker.
    Either way, as pi requires, the package sits under `<root>/releases`.
    """
    real = Path(os.path.realpath(resolved))
    named = (env.get("PI_MANAGED_INSTALL_ROOT") or "").strip()
    if named and real.is_relative_to(Path(os.path.realpath(named)) / "releases"):
        return Path(os.path.realpath(named))
    for folder in real.parents:
        if folder.name == "releases" and (folder.parent / MARKER).is_file():
            return folder.parent
    return None


def _valid_marker(path: Path) -> bool:
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))  # pi strips a BOM too
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and all(data.get(k) == v for k, v in MARKER_FIELDS.items())


def self_update_argv(env: Mapping[str, str]) -> tuple[str, ...] | None:
    """The command `pi update` runs instead of its own: PI_SELF_UPDATE_COMMAND split on
    whitespace, else `selfUpdateCommand` in the settings.json of the agent dir pi reads
    (`getConfiguredSelfUpdateArgv` in 1.x's dist/config.js)."""
    words = tuple((env.get(SELF_UPDATE_VAR) or "").split())
    if words:
        return words
    from installer.settings.store import glance

    named = env.get("PI_CODING_AGENT_DIR")
    home = Path(env.get("HOME") or Path.home())
    agent = expand_home(named, str(home)) if named else home / ".pi" / "agent"
    setting = glance(agent / "settings.json", bom=True).get("selfUpdateCommand")
    if isinstance(setting, list) and setting and all(isinstance(a, str) for a in setting):
        return tuple(setting)
    return None


def npm_global_prefix(
    env: Mapping[str, str], *, run: bool = False, timeout: float = 3.0
) -> Path | None:
    """npm's global prefix from the environment, or from `npm prefix -g` when `run` (slow)."""
    value = env.get("npm_config_prefix") or env.get("NPM_CONFIG_PREFIX")
    if value:
        return expand_home(value)
    if not run:
        return None
    from installer.updates.fetch import run_npm

    done = run_npm(["prefix", "-g"], env, timeout)
    out = done.stdout.strip() if done is not None and done.returncode == 0 else ""
    return Path(out) if out else None
