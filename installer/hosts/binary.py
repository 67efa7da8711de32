"""A host's own binary: found on PATH, and the version it says (`<binary> --version`).

The version is remembered per binary identity in a cache file of its own per host, as pi's
is (installer/host/cache.py), so `ext doctor` asks each binary once a day, not every run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from installer.ground.errors import ExtError
from installer.ground.records import NamedTuple

if TYPE_CHECKING:
    from collections.abc import Mapping

    from installer.hosts.profile import Host

VERSION_TIMEOUT = 15.0  # a Node CLI's first start on a cold disk takes seconds


class Binary(NamedTuple):
    """A host's binary as found: where, and the version it said (None: it said none, or hung)."""

    path: Path
    version: str | None
    timed_out: bool = False


def find_binary(host: Host, path_env: str | None) -> Path | None:
    """The host's binary on PATH (`path_env` replaces PATH), or None."""
    from installer.ground.which import which

    found = which(host.binary, path=path_env) if host.binary else None
    return Path(os.path.abspath(found)) if found else None


def install_hint(host: Host) -> str:
    """The command that installs the host (npm is how each one is published)."""
    import shlex

    return shlex.join(["npm", "install", "-g", host.package])


def require_binary(host: Host, path_env: str | None) -> Path:
    """The binary, or exit 1 naming the install command."""
    found = find_binary(host, path_env)
    if found is None:
        from installer.ground.which import only_relative

        relative = only_relative(host.binary, path_env) if host.binary else ""
        missing = f"{host.binary} ({host.title}) was not found on PATH{relative}"
        raise ExtError(missing, install_hint(host))
    return found


def binary_of(
    host: Host, environ: Mapping[str, str], timeout: float = VERSION_TIMEOUT
) -> Binary | None:
    """The binary and its version, asked once per binary identity; None when not on PATH."""
    from installer.host import cache

    path = find_binary(host, environ.get("PATH"))
    if path is None:
        return None
    name = f"{host.name}-version.json"
    try:
        ident = cache.identity(path.resolve(strict=True))
    except (OSError, RuntimeError):
        ident = None
    known = cache.lookup(ident, name=name)
    if known is not None:
        return Binary(path, known.version)
    version, timed_out = ask_version(path, environ, timeout)
    cache.remember(ident, version, name=name)
    return Binary(path, version, timed_out)


# The variables that name where a host keeps its files: none reaches a version probe.
_HOME_VARS = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_", "OPENCODE_")


def ask_version(path: Path, environ: Mapping[str, str], timeout: float) -> tuple[str | None, bool]:
    """The first semver-looking token `<path> --version` prints, and whether it hung."""
    import tempfile

    from installer.host.pi import run_bounded
    from installer.host.versions import version_in

    # In a home of its own: Gemini CLI writes `projects.json` into ~/.gemini even for
    # --version, and a doctor writes nothing in the user's dirs.
    with tempfile.TemporaryDirectory(prefix="ext-version-") as home:
        env = {k: v for k, v in environ.items() if not k.startswith(_HOME_VARS)}
        env.update(HOME=home, XDG_CONFIG_HOME=f"{home}/.config", XDG_DATA_HOME=f"{home}/.data")
        env.update(XDG_STATE_HOME=f"{home}/.state", XDG_CACHE_HOME=f"{home}/.cache")
        try:
            out = run_bounded([str(path), "--version"], env, timeout)
        except OSError:
            return None, False
    if out.timed_out:
        return None, True
    return version_in(out.stdout) or version_in(out.stderr), False


def exec_binary(path: Path, argv: list[str], env: Mapping[str, str]) -> NoReturn:
    """Replace this process with the binary, so signals and the TTY are the host's."""
    import sys

    sys.stdout.flush()  # exec drops Python's buffers: a warning printed just before would vanish
    sys.stderr.flush()
    try:
        from installer.ground import modes

        modes.give_back()  # the host's files as the person's umask makes them
        os.execve(path, argv, env)  # noqa: S606 -- exec is the point
    except OSError as exc:
        raise ExtError(
            f"could not start {argv[0]} ({path}): {exc.strerror or exc}",
            f"check that {path} is executable and its interpreter (node) is on PATH",
        ) from exc
