"""The extensions' source, read statically: which ones doctor reads, and their imports."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from installer.doctor.checks.loaded import (
    Loaded,
    in_agent_dir,
    in_package,
    is_typescript,
    read_source,
    source_files,
)
from installer.doctor.finding import Finding, Skip, count, error, info, ok
from installer.doctor.subject import Subject
from installer.ground.errors import ExtError

if TYPE_CHECKING:
    from installer.host.lines import PiLine
    from installer.sets.scan_source import ScopeDrift


def loaded_here(s: Subject) -> list[Loaded]:
    """Every extension pi loads from the agent dir: its own and the set registered as a
    package, less what settings.json switches off (`pi config`'s `-path`, a `!glob`)."""
    if s.agent_dir is None or not s.agent_dir.is_dir():
        return []
    from installer.settings.switches import loads_local

    read = s.settings()
    data = read.data if read.error is None and read.data else {}  # unreadable: pi runs on
    top = data.get("extensions")
    found = [
        e
        for e in in_agent_dir(s.agent_dir)
        if loads_local(top, e.label, str(s.agent_dir / e.label))
    ]
    try:
        entries = s.package_entries()
    except ExtError:
        entries = []  # settings.json's own check reports why
    if s.set_root is not None:
        for entry in entries:
            patterns = entry.get("extensions") if isinstance(entry, dict) else None
            found += in_package(s.set_root, s.pi_line(), patterns)
    return unique(found)


def of_the_set(s: Subject) -> list[Loaded]:
    """The set's own extensions, installed or not (they would load once installed), less
    those the user disabled (`ext disable`, `pi config`): pi loads none of those."""
    try:
        resources = s.resources() if s.set_root is not None else ()
    except ExtError:
        return []
    off = _switched_off(s)
    extensions = [r for r in resources if r.kind == "extension" and r.label not in off]
    return [Loaded(r.label, Path(r.source), Path(r.source)) for r in extensions]


def _switched_off(s: Subject) -> set[str]:
    """The labels of the set's items that are disabled in the agent dir, by ext or pi config."""
    ctx = s.ctx
    if ctx is None or not s.agent_exists:
        return set()
    from installer.links.states import items

    try:
        _, listed = s.memo("items", lambda: items(ctx))
    except (ExtError, OSError):
        return set()  # the items check says why
    return {
        i.resource.label
        for i in listed
        if i.state == "disabled" or (i.pi is not None and not i.pi.on)
    }


def unique(found: list[Loaded]) -> list[Loaded]:
    """One Loaded per real file or folder (a link and its target are one extension)."""
    seen: set[str] = set()
    out = []
    for item in found:
        real = os.path.realpath(item.home)
        if real not in seen:
            seen.add(real)
            out.append(item)
    return out


def scope(s: Subject) -> Iterator[Finding]:
    """A value import from a pi scope the pi found cannot load fails: an error. One that only
    another line of pi cannot load is said as info, for a set meant to run on both."""
    from installer.host.lines import line_of
    from installer.sets.scan_source import scan_imports, scope_drift

    host = s.host()
    if host is None:
        raise Skip(f"{s.host_command} was not found (see host)")
    if host.package is None and host.version is None:
        yield info(f"{host.command}'s version and package are unknown; imports not checked")
        return
    pi = line_of(host.version, host.package)
    named = " ".join(filter(None, (host.command, host.version)))
    extensions = unique([*of_the_set(s), *loaded_here(s)])
    files = clean = 0
    for ext in extensions:
        elsewhere: list[tuple[str, ScopeDrift]] = []
        for path in source_files(ext.home):
            text = read_source(path)
            if text is None:
                continue
            files += 1
            drifts = scope_drift(scan_imports(text, typescript=is_typescript(path)), pi)
            for d in drifts:
                where = f"{os.path.realpath(path)}:{d.line}"
                if not d.fails_here:
                    elsewhere.append((where, d))
                    continue
                yield error(
                    f'{ext.label}: {where} imports a value from "{d.module}": {named} cannot '
                    "load it",
                    d.fix,
                )
            clean += not any(d.fails_here for d in drifts)
        if elsewhere:
            yield _loads_here_only(ext.label, elsewhere, pi)
    if clean == files:
        yield ok(
            f"no extension imports a value from a pi scope {named} cannot load "
            f"({count(files, 'file')} of {count(len(extensions), 'extension')}; "
            f"pi {pi.name} loads {' and '.join(pi.scopes)})"
        )


def _loads_here_only(label: str, found: list[tuple[str, ScopeDrift]], pi: PiLine) -> Finding:
    """Imports this pi loads and another line does not: fine here, a failure there."""
    where, first = found[0]
    more = f", and {count(len(found) - 1, 'more import')}" if len(found) > 1 else ""
    others = " and ".join(f"pi {name}" for name in first.fails_on)
    return info(
        f'{label}: {where} imports a value from "{first.module}"{more}: pi {pi.name} loads '
        f"it, {others} cannot",
        f'to run on {others} too, import from "{first.replacement}" (every pi loads it), '
        "or use `import type` if only types are needed",
    )
