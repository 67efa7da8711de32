"""A host other than pi: its binary and version, that version against the set's tested range,
and (--deep) what the host itself says it loaded, item by item."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from installer.doctor.checks.agent import existing
from installer.doctor.finding import Finding, Skip, count, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.context import home_of
from installer.ground.shellword import shell_word
from installer.hosts.binary import Binary, binary_of, install_hint
from installer.hosts.profile import folder_of

if TYPE_CHECKING:
    from collections.abc import Mapping

    from installer.hosts.profile import Host
    from installer.links.states import Item

# The word a host's listing uses for each kind of the set's items it takes.
KIND_WORD = {"skill": "skill", "prompt": "command"}


def binary(s: Subject) -> Binary | None:
    """The host's binary and its version, looked up once per doctor run."""
    return s.memo("host-binary", lambda: binary_of(s.on, s.env.environ))


def found(s: Subject) -> Iterator[Finding]:
    """Where the host's binary is and which version it says; not installed is news only."""
    host = s.on
    b = binary(s)
    if b is None:
        yield info(
            f"{host.binary} ({host.title}) was not found on PATH; install still works: "
            "files are files",
            install_hint(host),
        )
        return
    if b.version is None:
        why = " (it did not answer --version in time)" if b.timed_out else ""
        yield info(f"{host.binary} at {b.path}: version unknown{why}")
        return
    yield ok(f"{host.title} {b.version} at {b.path}")


def tested(s: Subject) -> Iterator[Finding]:
    """The host's version against `[hosts.NAME] tested`, by npm's range rules (as pi's drift)."""
    from installer.host.versions import where

    host = s.on
    if s.manifest is None:
        raise Skip("the set's manifest could not be read (see set.manifest)")
    wanted = s.manifest.hosts_tested.get(host.name)
    if wanted is None:
        raise Skip(f"the set names no tested versions of {host.title} ([hosts.{host.name}] tested)")
    b = binary(s)
    if b is None:
        raise Skip(f"{host.binary} was not found (see host.found)")
    side = where(b.version, wanted)
    if side is None:
        yield info(f"unknown: {host.title} {b.version or '(version unknown)'} against {wanted!r}")
        return
    if side == "in":
        yield ok(f"{host.title} {b.version} is within the tested versions ({wanted})")
        return
    relation = {"older": "older than", "newer": "newer than", "between": "not one of"}[side]
    import shlex

    pinned = shlex.join(["npm", "install", "-g", f"{host.package}@{wanted}"])
    yield warn(
        f"{host.title} {b.version} is {relation} the versions this set was tested with ({wanted})",
        f"install a tested version: {pinned}, or test the set with {b.version} and widen "
        f"[hosts.{host.name}] tested",
    )


class Loaded(Protocol):
    """installer.hosts.judges.Loaded: one item the host says it loaded."""

    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def path(self) -> str | None: ...


class Judge(Protocol):
    """installer.hosts.judges.judge: the host's own binary, asked what it loaded."""

    def __call__(
        self, host: str, binary: str, config_dir: Path, home: Path, environ: Mapping[str, str]
    ) -> Any: ...


def loaded(s: Subject) -> Iterator[Finding]:
    """--deep: every item ext lists as enabled is loaded by the host; no disabled one is."""
    from installer.ground.errors import ExtError
    from installer.links.states import items

    host = s.on
    config_dir = existing(s)
    s.check_startable(host.title)
    b = binary(s)
    if b is None:
        raise Skip(f"{host.binary} was not found (see host.found), so it cannot be asked")
    ctx = s.ctx
    if ctx is None:
        raise Skip("the set was not found")
    try:
        _mode, listed = items(ctx)
    except ExtError:
        raise Skip("the set's resources could not be read (see set.resources)") from None
    says = _judge()(host.name, str(b.path), config_dir, home_of(s.env), s.env.environ)
    yield from compare(listed, says.loaded, host)
    place = host.place("skill")
    own = Path(config_dir, folder_of(place, home_of(s.env))) if place else None
    yield from reported(listed, says.problems, host, own, config_dir)


def reported(
    listed: Sequence[Item], problems: Sequence[str], host: Host, own: Path | None, dir_: Path
) -> Iterator[Finding]:
    """What the host itself reports of the skills it found: a warning when it names one of the
    set's (helper-55: Gemini CLI's "Skill conflict detected" for a skill linked both in its
    own folder and in ~/.agents/skills went unsaid), else a note. The fix: the host's install
    (which drops its own link of a skill a shared folder holds) when its own folder links it,
    else the host's own switch for reading one folder (helper-56: the install did nothing)."""
    skills = [i for i in listed if i.resource.kind == "skill"]
    for problem in problems:
        named = [i for i in skills if _names(problem, i)]
        if not named:
            yield info(f"{host.title} reports, of a skill not in this set: {problem}")
            continue
        linked_here = own is not None and any(
            os.path.islink(own / i.resource.filename) for i in named
        )
        ways = []
        if linked_here:
            install = f"ext --host {host.name} --agent-dir {shell_word(dir_)} install"
            ways.append(f"`{install}` drops its own link, as the other folder has the set's")
        if host.shared_twice_fix:
            ways.append(host.shared_twice_fix)
        fix = "; or ".join(ways) or "remove one of the two copies from the folders it reads"
        yield warn(f"{host.title} reports: {problem}", f"keep one copy: {fix}")


def _names(problem: str, item: Item) -> bool:
    """Whether the host's report names the item: by its name, quoted or as `name=`, or by
    its folder in the set."""
    name = item.host_name or item.resource.name
    said = f"{problem} "
    return f'"{name}"' in said or f"={name} " in said or item.resource.source in said


def _judge() -> Judge:
    """The judges, imported only when --deep asks one (each may start a Node CLI)."""
    from importlib import import_module

    try:
        judge: Judge = import_module("installer.hosts.judges").judge
    except ModuleNotFoundError as exc:
        if exc.name not in ("installer.hosts.judges", "installer.hosts"):
            raise
        raise Skip("this ext has no judges of other hosts yet") from None
    return judge


def compare(listed: Sequence[Item], loaded: Sequence[Loaded], host: Host) -> Iterator[Finding]:
    """An error per enabled item the host does not load and per disabled one it does."""
    title = host.title
    on = [i for i in listed if i.state == "enabled" and i.resource.kind in KIND_WORD]
    off = [i for i in listed if i.state == "disabled" and i.resource.kind in KIND_WORD]
    bad = 0
    for item in on:
        got = _match(item, loaded)
        if got is not None and _from_another_file(item, got, loaded):
            bad += 1  # its name, from another file: a copy the host reads first, or instead
            yield warn(
                f"{item.resource.label}: {title} loads a {got.kind} of this name from "
                f"{got.path}, not the set's ({_real(item)})",
                f"move that one out of the folders {title} reads (hidden ones too), or rename it",
            )
            continue
        if got is None:
            bad += 1
            said = f"{item.resource.label}: ext lists it enabled ({item.path}), yet {title} does "
            if item.refused:  # ext said so (host.items warns): the host agrees, no surprise
                yield warn(
                    f"{said}not load it ({item.refused})",
                    f"give {item.resource.source}/SKILL.md what it lacks",
                )
                continue
            # Listed enabled, ext's link is in place: the host passes over the file itself.
            yield error(
                f"{said}not load it",
                f"check {item.resource.source} against what {title} loads (its frontmatter, "
                f"its size, its name); ext's link to it is in place",
            )
    for item in off:
        seen, r = _match(item, loaded), item.resource
        if seen is not None:
            bad += 1
            where = f" from {seen.path}" if seen.path else ""
            yield error(
                f"{item.resource.label}: ext lists it disabled ({item.path}), yet {title} "
                f"loads it{where}",
                f"remove the other copy{where}, or `ext --host {host.name} enable "
                f"{shell_word(r.name)}`"
                if where
                else f"report it: {title} loads a disabled item",
            )
    for item in [i for i in listed if i.state == "not-installed"]:
        seen = _match(item, [got for got in loaded if got.path], by_name=False)
        if seen is not None:  # the set's own file, through a copy or link ext did not put here
            bad += 1
            # One ext parked or backed up in a folder the host reads (said when it did so).
            known = any(part in (seen.path or "") for part in ("/.off/", "/.bak/"))
            yield (warn if known else error)(
                f"{item.resource.label}: ext lists it not installed here, yet {title} loads the "
                f"set's copy from {seen.path}",
                f"{title} reads that folder too, hidden folders in it included: switch it on "
                f"there, or move it out of that folder",
            )
    if not bad:
        yield ok(
            f"{title} loads the {count(len(on), 'enabled item')} and none of the "
            f"{count(len(off), 'disabled one')}"
        )


def _match(item: Item, loaded: Sequence[Loaded], by_name: bool = True) -> Loaded | None:
    """What the host loaded as this item: the same kind, by name or by the file it read."""
    word = item.host_kind or KIND_WORD[item.resource.kind]
    real = _real(item)
    for got in loaded:
        if got.kind != word:
            continue
        if by_name and got.name == item.resource.name:
            return got
        if got.path and _is_of(got.path, real):
            return got
    return None


def _from_another_file(item: Item, got: Loaded, loaded: Sequence[Loaded]) -> bool:
    """The host loads the item's name, but only from a file that is not the set's (a command
    ext writes, Gemini CLI's TOML, is read from the file written: not another)."""
    if not got.path or item.resource.written:
        return False
    return _match(item, loaded, by_name=False) is None


def _real(item: Item) -> str:
    """Where the item's own file is, every link resolved."""
    return os.path.realpath(item.resource.real or item.resource.source)


def _is_of(path: str, real: str) -> bool:
    """`path` (the host's, say `skills/review/SKILL.md`) is the item's file or inside it."""
    there = os.path.realpath(path)
    return there == real or there.startswith(real + os.sep)
