"""`/ext` that can be trusted: pi's `/ext` is ext's, and the ext it runs is only the user's.

Two extensions registering one command name make pi rename both (`ext:1`, `ext:2`): no plain
`/ext` is left. A file's presence says nothing of that; pi's own command list does (--deep),
and a set extension's source that registers `ext` is the likely cause (said without pi).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from installer.doctor.checks.agent import existing
from installer.doctor.checks.perms import owned_by_others, walk, writable_by_others
from installer.doctor.finding import Finding, Skip, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.shellword import shell_word

if TYPE_CHECKING:
    from installer.host.loader import Command

# registerCommand("ext", …) with any quote; a name built at run time is not seen.
_REGISTERS_EXT = re.compile(r"""registerCommand\s*\(\s*(["'`])ext\1""")


def binary(s: Subject) -> Iterator[Finding]:
    """The ext /ext runs, and its folder: the user's (or root's), writable by nobody else."""
    ext = _recorded_ext(s)
    paths = [Path(ext), Path(ext).parent]
    real = Path(os.path.realpath(ext))
    if real != Path(ext):  # a pipx shim: the script it leads to runs too
        paths += [real, real.parent]
    loose = writable_by_others(paths)
    strangers = owned_by_others(paths)
    runs = "/ext runs it as you inside pi"
    if loose:
        shown = " ".join(str(p) for p in loose)
        words = " ".join(shell_word(Path(p)) for p in loose)
        yield warn(f"writable by group or others: {shown}; {runs}", f"chmod go-w {words}")
    if strangers:
        shown = " ".join(str(p) for p in strangers)
        yield warn(
            f"owned by another user: {shown}; {runs}",
            "install ext as yourself, then run `ext install` with it",
        )
    if not loose and not strangers:
        yield ok(f"only you can change the ext /ext runs ({ext})")


def _recorded_ext(s: Subject) -> str:
    """The absolute path ext recorded for /ext; Skip when there is none to look at."""
    from installer.agent.recorder import COMMAND, command_record
    from installer.ground.state import load_state

    record = command_record(load_state(existing(s)), s.set_root)
    ext = (record.extra.get(COMMAND.key) or {}).get("ext") if record else None
    if not isinstance(ext, str) or not os.path.isabs(ext) or not os.path.isfile(ext):
        raise Skip("the ext /ext runs is not recorded, or is gone (see command)")
    return ext


def name_clash(s: Subject) -> Iterator[Finding]:
    """A set extension that registers a command named `ext`: pi would rename /ext."""
    from installer.doctor.checks.loaded import package_extensions, read_source

    if s.set_root is None:
        raise Skip("the set was not found (see set)")
    found: dict[Path, Path] = {}  # source file -> its extension's home
    names: dict[Path, str] = {}  # an extension's home -> its name, as `ext disable` takes it
    for e in package_extensions(s.set_root, s.pi_line()):
        names.setdefault(e.home, e.label)
    for home in names:
        for path in _sources(home):
            text = read_source(path)
            if text is not None and _REGISTERS_EXT.search(text):
                found[path] = home
    if not found:
        yield ok("no extension of the set registers a command named ext")
        return
    shown = ", ".join(str(p) for p in found)
    labels = list(dict.fromkeys(names[h] for h in found.values()))
    if _switched_off(s, labels):
        # `ext disable` (command.pi's fix) took it out of pi: no clash there now.
        yield info(
            f"{shown} registers a command named ext; it is switched off here, so pi's /ext "
            "is ext's",
            "give that command another name before switching it on",
        )
        return
    yield warn(
        f"{shown} registers a command named ext: pi then renames it and ext's own to "
        "/ext:1 and /ext:2, and no /ext is left",
        f"give that command another name, or switch that extension off (`ext disable "
        f"{' '.join(labels)}`)",
    )


def _switched_off(s: Subject, labels: list[str]) -> bool:
    """Whether each of these extensions of the set is off here, as `ext list` says: a parked
    link, pi config's `-path`, or the packages entry's filter (register mode)."""
    ctx = s.ctx
    if ctx is None or not ctx.agent_dir.is_dir():
        return False
    from installer.ground.errors import ExtError
    from installer.links.states import items

    try:
        listed = items(ctx)[1]
    except ExtError:  # what the agent dir holds is said by the item checks
        return False
    off = {i.resource.label for i in listed if i.state == "disabled"}
    return all(label in off for label in labels)


def _sources(home: Path) -> Iterator[Path]:
    """An extension's source files: itself, or those in its folder (perms.walk: no links
    followed, no node_modules or dot folders, a bounded depth and count)."""
    from installer.sets.link_imports import SOURCE_SUFFIXES

    for path in walk(home):
        parts = path.relative_to(home).parts
        if any(p == "node_modules" or p.startswith(".") for p in parts):
            continue
        source = path.name.endswith(SOURCE_SUFFIXES) and not path.name.endswith(".d.ts")
        if source and path.is_file() and not path.is_symlink():
            yield path


def in_pi(s: Subject) -> Iterator[Finding]:
    """--deep: pi's own command list has a plain /ext, and it is ext's."""
    from installer.agent.recorder import COMMAND, status, switched_off_in_pi, switched_on_in_pi
    from installer.host.loader import Unavailable

    agent = existing(s)
    if status(agent, COMMAND) == "missing":
        raise Skip(f"no {COMMAND.dest} here (see command)")
    from installer.doctor.checks.node import require_node

    s.runnable_host()  # never the set's own binary before the set is installed
    require_node(s)
    view = s.loader_view(agent)
    if isinstance(view, Unavailable):
        yield info(f"pi's command list was not asked: {view.reason}")
        return
    if view.commands is None:
        yield info("this pi's SDK does not list its commands: /ext was not checked in pi")
        return
    found = pi_finding(view.commands, os.path.realpath(agent / COMMAND.dest), COMMAND.dest)
    cwd = s.ctx.env.cwd if s.ctx else None
    off = switched_off_in_pi(agent, cwd, COMMAND.dest, s.pi_line().strips_bom)
    if found.level != "ok" and off is not None:  # the user's choice: `command` says so
        yield info(
            f"pi does not load ext's /ext: {COMMAND.dest} is switched off ({off})",
            switched_on_in_pi(COMMAND.dest),
        )
        return
    yield found


def pi_finding(commands: Sequence[Command], ours: str, dest: str) -> Finding:
    """What pi's command list says of /ext: `ours` is the real path of ext's command file."""
    named = [c for c in commands if c.name == "ext"]
    mine = next((c for c in named if c.real == ours), None)
    others = ", ".join(sorted({c.path or "?" for c in named if c.real != ours}))
    fix = "rename that extension's command, or switch it off (`ext disable`, `pi config`)"
    if mine is not None and mine.invocation == "ext":
        return ok("pi offers /ext, and it is ext's")
    if mine is not None:
        renamed = ", ".join(f"/{c.invocation}" for c in named)
        return error(
            f"pi offers no /ext: {others} also registers ext, so pi renamed both ({renamed})", fix
        )
    if named:
        return error(f"/ext in pi is not ext's: it is {others}'s, and ext's is not loaded", fix)
    return error(
        f"pi does not load ext's /ext ({dest})",
        "`ext doctor --deep --check loader` says why; then `ext install`",
    )
