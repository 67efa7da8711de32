"""The extensions' source, read statically: which ones doctor reads, and their imports."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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
            found += in_package(s.set_root, patterns)
    return unique(found)


def of_the_set(s: Subject) -> list[Loaded]:
    """The set's own extensions, installed or not: they would load once installed."""
    try:
        resources = s.resources() if s.set_root is not None else ()
    except ExtError:
        return []
    extensions = [r for r in resources if r.kind == "extension"]
    return [Loaded(r.label, Path(r.source), Path(r.source)) for r in extensions]


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
    """A value import from the pi scope the host is not published under fails to load."""
    from installer.sets.scan_source import PI_SCOPES, scan_imports, scope_drift

    host = s.host()
    if host is None:
        raise Skip(f"{s.host_command} was not found (see host)")
    if host.scope not in PI_SCOPES:
        what = host.package or "no package.json beside it"
        yield info(f"{host.command}'s package scope is unknown ({what}); imports not checked")
        return
    extensions = unique([*of_the_set(s), *loaded_here(s)])
    files = clean = 0
    for ext in extensions:
        for path in source_files(ext.home):
            text = read_source(path)
            if text is None:
                continue
            files += 1
            drifts = scope_drift(scan_imports(text, typescript=is_typescript(path)), host.scope)
            for d in drifts:
                yield error(
                    f"{ext.label}: {os.path.realpath(path)}:{d.line} imports a value from "
                    f'"{d.module}", but {host.command} is published as {host.package}: '
                    "pi cannot load it",
                    d.fix,
                )
            clean += not drifts
    if clean == files:
        yield ok(
            f"no extension imports a value from the other pi scope "
            f"({count(files, 'file')} of {count(len(extensions), 'extension')}; "
            f"{host.command} is {host.scope})"
        )
