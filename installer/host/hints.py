"""The commands ext's hints name to get a pi: today's package, or one inside a tested range.

Which package has versions in a range is a fact of the table (`installer.host.lines`):
a line's releases that exist today run from its `first` to its `tested` (a closed line's
last release, or today's). Ranges are asked through `installer.host.versions.where`,
whose answers are kept: a drift warning on every install loads no version library.
"""

from __future__ import annotations

from pathlib import Path

from installer.host.lines import LINES, OLDEST, TODAY, PiLine, install_spec, line_of

RETEST = "re-test the set and widen [host] tested in extset.toml"


def missing_fix() -> str:
    """The fix when no pi is found: install today's package, with the Node it needs."""
    return (
        f"install pi: npm install -g {TODAY.package} (it needs Node {TODAY.node}), "
        "or set [host] command in extset.toml to its path"
    )


def not_found(command: str, path: str | None = None) -> tuple[str, str]:
    """What to say of a host command that names nothing to run, and the fix: a bare name is not
    on PATH (`path`: with the program a relative entry alone holds, which ext never runs:
    helper-77); a path (the set's own file, from its folder) is no executable file
    (helper-67: it was said "not found on PATH", with "set [host] command to its path")."""
    from installer.ground.home import expand_home

    if "/" not in str(expand_home(command)):
        from installer.ground.which import only_relative

        return f"{command} was not found on PATH{only_relative(command, path)}", missing_fix()
    return (
        f"{command}, the set's [host] command, is not an executable file",
        "make it one, or correct (or remove, for the pi on PATH) [host] command in extset.toml",
    )


def install_tested(
    version: str | None, package: str | None, tested: str, resolved: Path | None = None
) -> str:
    """The fix of a pi outside `tested`: the npm commands that install a release in it (of the
    pi's own package when it has one; else of the package that has, removing this one first),
    into where the pi at `resolved` is (global, or a folder's node_modules), or re-testing the
    set."""
    from installer.host.npmroot import npm_command
    from installer.host.versions import reaches, where

    if where(OLDEST.tested, tested) == "newer":  # helper-86: `tested = "0.1.0"` named pi 0.1.0
        return (
            f"that range is older than pi {OLDEST.tested}, the oldest ext supports: re-test the "
            "set on a pi ext supports and name it in [host] tested in extset.toml"
        )
    mine = line_of(version, package)
    having = [line for line in LINES if _has_releases_in(line, tested)]
    if not having and reaches(TODAY.tested, None, tested):  # only above it, then
        return _newer_than_known(mine, package, tested, resolved)
    if not having:
        return f"no release of pi ext knows of is in that range: {RETEST}"
    line = mine if mine in having else having[-1]
    pinned = line.tested if where(line.tested, tested) == "in" else tested  # npm picks from it
    install = npm_command("install", install_spec(line, pinned), resolved, package)
    if line.package == mine.package:
        return f"install a tested version: {install}, or {RETEST}"
    remove = npm_command("uninstall", package or mine.package, resolved, package)
    # The Node the new line needs, when the old pi's least Node is not in its range.
    least = mine.node.removeprefix(">=")
    node = f" (it needs Node {line.node})" if where(least, line.node) != "in" else ""
    return f"only {line.package} has those versions{node}: {remove} && {install}, or {RETEST}"


def _newer_than_known(mine: PiLine, package: str | None, tested: str, resolved: Path | None) -> str:
    """A range above every release ext knows of: today's package goes on, so the set may be
    tested with one out since (helper-40: `~1.7.0` with 1.7.0 on the registry was told to
    widen its range). npm says whether such a release is out; ext, offline, cannot."""
    from installer.host.npmroot import npm_command
    from installer.host.versions import where

    install = npm_command("install", install_spec(TODAY, tested), resolved, package)
    node = ""
    if mine.package != TODAY.package:
        remove = npm_command("uninstall", package or mine.package, resolved, package)
        install = f"{remove} && {install}"
        least = mine.node.removeprefix(">=")
        node = f" (it needs Node {TODAY.node})" if where(least, TODAY.node) != "in" else ""
    return (
        f"that range is newer than pi {TODAY.tested}, the newest ext knows of: if a release in "
        f"it is out (npm view {TODAY.package} versions){node}, {install}; else {RETEST}"
    )


def _has_releases_in(line: PiLine, tested: str) -> bool:
    """True when `tested` admits a release of `line` that ext supports: one from the line's
    first (the oldest line's: the oldest ext supports) to its tested one."""
    from installer.host.versions import reaches

    return bool(reaches(OLDEST.tested if line is OLDEST else line.first, line.tested, tested))
