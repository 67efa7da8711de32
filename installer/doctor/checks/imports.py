"""The set's linked extensions, read statically: imports their links lose on a pi that
resolves from the link (0.73), which then cannot load them (installer/sets/link_imports.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from installer.doctor.checks.agent import existing
from installer.doctor.checks.loaded import in_agent_dir
from installer.doctor.finding import Finding, Skip, count, error, ok
from installer.doctor.subject import Subject
from installer.ground.errors import ExtError


def linked(s: Subject) -> Iterator[Finding]:
    """An error per linked extension of the set whose imports its link loses on this pi."""
    from installer.host.lines import line_of
    from installer.sets.link_imports import escapes, said

    agent_dir = existing(s)
    host = s.host()
    if host is None:
        raise Skip(f"{s.host_command} was not found (see host)")
    line = line_of(host.version, host.package)
    pi = f"{host.command} {host.version or line.tested}"
    if line.imports_from == "target":
        yield ok(f"{pi} resolves a linked extension's imports from the set")
        return
    homes = _linked_homes(s, agent_dir)
    root = Path(os.path.realpath(s.set_root or os.sep))
    bad = 0
    for (home, label, folder), entries in homes.items():
        found = escapes(home, entries, agent_dir / "extensions")
        if found:
            bad += 1
            yield error(
                f"{label}: {said(found[0], label, folder, root, len(found) - 1)}, and {pi} "
                "resolves a linked extension's imports from its link in the agent dir: "
                "pi cannot load it",
                "`ext install --mode register` (pi then loads the set in place)",
            )
    if not homes:
        yield ok(f"no extension of the set is linked here, so none loses an import ({pi})")
    elif not bad:
        yield ok(
            f"the imports of {count(len(homes), 'linked extension')} all resolve from their "
            f"links ({pi} looks from the link in the agent dir, not from the set)"
        )


def _linked_homes(s: Subject, agent_dir: Path) -> dict[tuple[Path, str, bool], list[Path]]:
    """(real home, item name, is a folder) -> real entries, for each of the set's extensions
    that pi finds through a link in the agent dir."""
    try:
        resources = s.resources() if s.set_root is not None else ()
    except ExtError:
        return {}  # set.resources reports why
    names = {os.path.realpath(r.source): r.label for r in resources if r.kind == "extension"}
    homes: dict[tuple[Path, str, bool], list[Path]] = {}
    for loaded in in_agent_dir(agent_dir):
        real = os.path.realpath(loaded.home)
        if not os.path.islink(loaded.home) or real not in names:
            continue
        key = (Path(real), names[real], os.path.isdir(real))
        homes.setdefault(key, []).append(Path(os.path.realpath(loaded.entry)))
    return homes
