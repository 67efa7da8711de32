"""The agent dir: there, writable by you and only you, its resource folders real folders."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from installer.doctor.checks.perms import listed, owned_by_others, writable_by_others
from installer.doctor.finding import Finding, Skip, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.clock import when_run
from installer.ground.context import this_set
from installer.ground.errors import ExtError
from installer.ground.installs import MOVED
from installer.ground.shellword import shell_word
from installer.links.scan import PARKED


def exists(s: Subject) -> Iterator[Finding]:
    """The agent dir is resolved, exists (or is the isolated one, made on install) and writable."""
    if s.agent_dir is None:
        err = s.agent_error or ExtError("the agent dir is unknown")
        yield error(err.message, err.fix)
        return
    from installer.ground.context import from_where

    where = f"{s.agent_dir} ({from_where(str(s.agent_source))})"
    elsewhere = _elsewhere(s)
    if not s.agent_dir.exists() and elsewhere:  # `ext install` here would be a second copy
        yield info(f"{where} does not exist yet; the set is installed in another dir (below)")
    elif not s.agent_dir.exists():
        yield info(f"{where} does not exist yet; `ext install` creates it", "ext install")
    elif not os.access(s.agent_dir, os.W_OK | os.X_OK):
        yield error(f"{where} is not writable by you", _write_fix(s.agent_dir))
    else:
        yield ok(where)
    yield from elsewhere


def _elsewhere(s: Subject) -> list[Finding]:
    """The other dirs of this host that hold the set, when this one does not: the dir looked
    at may be the wrong one (installed with --agent-dir, run without)."""
    from installer.ground.installs import placed

    if s.set_root is None or s.agent_dir is None:
        return []
    host = "" if s.on.is_pi else f" --host {s.on.name}"
    name = s.manifest.name if s.manifest is not None else None

    found = placed(s.set_root, name, s.agent_dir, s.on.name)
    place = shell_word(s.agent_dir)
    nowhere = []
    moved = any(not os.path.isdir(r.root) for r in found.held)  # this set may be that one
    # (a dir not made yet is said above, with the install that makes it)
    nowhere_yet = not (found.here or found.others or moved) and s.agent_dir.is_dir()
    if nowhere_yet and s.set_source != "bundled":
        nowhere = [
            info(
                f"this set is installed in no {s.on.title} agent dir yet",
                f"install it here: `ext{host} --set {shell_word(s.set_root)} --agent-dir "
                f"{place} install`",
            )
        ]
    # The sets this dir holds when it does not hold the one doctor was run on (the right dir,
    # run from another set's folder), each with the doctor of that set here.
    elsewhere = [
        info(
            f"the set is not installed in this dir but in {d}",
            # --set too: a --json fix is not completed with this run's flags (helper-42)
            f"check that dir: `ext{host} --set {shell_word(s.set_root)} --agent-dir "
            f"{shell_word(d)} doctor`",
        )
        for d in found.others
    ]
    held = [
        info(
            f"this dir holds the set {r.name} ({shell_word(Path(r.root))}), "
            f"not {this_set(s.set_source)}",
            f"check that set: `ext{host} --set {shell_word(Path(r.root))} --agent-dir {place} "
            "doctor`"
            if os.path.isdir(r.root)
            else MOVED,
        )
        for r in found.held
    ]
    return _another_agents(s) or elsewhere + held + nowhere


def _another_agents(s: Subject) -> list[Finding]:
    """A dir that holds other agents' installs of ext alone, checked for this one (helper-87:
    doctor gave `ext install` as the fix, which is refused there)."""
    held = s.other_agents()
    if not held:
        return []
    from installer.hosts.dirs import another_agents, own_dir_fix

    fix = own_dir_fix(s.ctx, "check") if s.ctx is not None else None
    return [warn(another_agents(held, s.on), fix)]


def _write_fix(agent_dir: Path) -> str:
    """A read-only mount is fixed by remounting it (chmod cannot), else by access."""
    import errno

    from installer.ground.errors import write_fix

    try:
        read_only = bool(os.statvfs(agent_dir).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    if read_only:
        return write_fix(errno.EROFS, agent_dir)
    return f"chmod u+rwx {shell_word(agent_dir)}"


def existing(s: Subject) -> Path:
    """The agent dir, or Skip when there is none to look at."""
    from installer.ground.errors import AgentDirMissing

    if s.agent_dir is None and isinstance(s.agent_error, AgentDirMissing):
        # Named, and known: missing, or a file where the folder should be.
        what = "is a file" if "is a file" in s.agent_error.message else "does not exist"
        raise Skip(f"the agent dir {what} (see agent.dir)")
    if s.agent_dir is None:
        raise Skip("the agent dir is unknown (see agent.dir)")
    if not s.agent_dir.is_dir():
        raise Skip("the agent dir does not exist yet (see agent.dir)")  # -q folds it (helper-81)
    return s.agent_dir


def perms(s: Subject) -> Iterator[Finding]:
    """Whoever can write the agent dir can add an extension that runs as you."""
    agent = existing(s)
    own = [f for f, _ in s.folders()]
    paths = [agent, *(agent / f for f in (*own, ".extset", "settings.json"))]
    paths = [p for p in paths if os.path.lexists(p)]
    loose = writable_by_others(paths)
    if loose:
        yield warn(
            f"writable by group or others: {listed(loose)}; anyone who can write there can "
            "add an extension that runs as you",
            f"chmod go-w {' '.join(shell_word(Path(p)) for p in loose)}",
        )
    strangers = owned_by_others(paths)
    if strangers:
        yield warn(f"owned by another user: {listed(strangers)}", f"chown -R $USER {agent}")
    if not loose and not strangers:
        yield ok("only you can write the agent dir")


def folders(s: Subject) -> Iterator[Finding]:
    """extensions/, skills/, … and their .off/, .bak/: real folders of the agent dir's own."""
    agent = existing(s)
    problems = [p for name, kind in s.folders() for p in _folder(s, agent, name, kind)]
    if s.on.place("extension") is not None:
        problems += _swallowed(agent / "extensions")
    yield from problems
    if not problems:
        yield ok("resource folders are real folders (or not made yet)")


def interrupted(s: Subject) -> Iterator[Finding]:
    """A run of ext killed part-way (its journal never closed): half its plan may be on disk.
    The next run of the same command finishes it (`ext history` lists it)."""
    from installer.engine.journal import incomplete

    agent = existing(s)
    try:
        rec = incomplete(agent)
    except ExtError as err:  # .extset/journal a symlink: agent.folders' and the writers' to say
        raise Skip(err.message) from None
    if rec is None:
        yield ok("no run of ext was cut short here")
        return
    from installer.engine.journal import settling

    said = (
        f"`ext {rec.command}` of {when_run(rec.started)} was interrupted part-way "
        f"({len(rec.steps)} step(s) journaled): what it did is half done"
    )
    yield warn(said, settling(rec))


def _folder(s: Subject, agent: Path, name: str, kind: str) -> Iterator[Finding]:
    for sub in (name, *(f"{name}/{p}" for p in PARKED)):
        path = agent / sub
        if path.is_symlink():
            into_set = s.set_root is not None and _inside(path, s.set_root)
            why = (
                "it leads into the set, so every link ext makes would point at itself"
                if into_set
                else f"ext never writes through it, and {s.on.title} loads whatever it leads to"
            )
            from installer.links.scan import real_folder_fix

            yield error(
                f"{path} is a symlink (to {os.readlink(path)}): {why}",
                real_folder_fix(path, "`ext install`", into_set),
            )
            return
        if path.exists() and not path.is_dir():
            from installer.ground.shellword import aside

            yield error(f"{path} is a file, not a folder", aside(path))
            return
    if s.set_root is not None and _inside(agent / name, s.set_root / kind):
        yield error(
            f"{agent / name} is the set's own {kind}/: ext would write into the set",
            "point --agent-dir at a folder outside the set",
        )


def _swallowed(folder: Path) -> list[Finding]:
    """An index.ts (or pi.extensions) right in extensions/ makes pi load that folder as one
    extension: nothing else in it, ext's links included, loads."""
    from installer.sets.pirules import extension_entries

    own = extension_entries(str(folder)) if folder.is_dir() else None
    if own is None:
        return []
    if own not in ((f"{folder}/index.ts",), (f"{folder}/index.js",)):
        # A package.json's pi.extensions names them: it is the file that makes it one.
        return [
            error(
                f"pi loads {folder} as one extension, because of extensions/package.json "
                "(its pi.extensions): no other extension in it loads, ext's links included",
                "move extensions/package.json into a folder of its own (extensions/<name>/), "
                "or remove its pi.extensions; then `ext install`",
            )
        ]
    what = ", ".join(os.path.relpath(p, folder.parent) for p in own)
    return [
        error(
            f"pi loads {folder} as one extension, because of {what}: no other extension in "
            "it loads, ext's links included",
            f"move {what} into a folder of its own (extensions/<name>/), then `ext install`",
        )
    ]


def _inside(path: Path, root: Path) -> bool:
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or real.startswith(base + os.sep)
