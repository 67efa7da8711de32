"""Flag names: pi keeps one definition per name, so two extensions must not share one."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from installer.doctor.checks.agent import existing
from installer.doctor.checks.loaded import Loaded, read_source, source_files
from installer.doctor.checks.source import loaded_here
from installer.doctor.finding import Finding, count, ok, warn
from installer.doctor.subject import Subject


@dataclass(frozen=True)
class FlagSite:
    """Where one extension registers a flag."""

    flag: str
    extension: str  # the extension's real file or folder: what makes two sites two extensions
    file: Path
    line: int


def sites(extensions: Iterable[Loaded]) -> Iterator[FlagSite]:
    """Every registerFlag("…") call in the extensions' source."""
    from installer.sets.scan_source import registered_flags

    for ext in extensions:
        home = os.path.realpath(ext.home)
        for path in source_files(ext.home):
            text = read_source(path)
            for ref in registered_flags(text) if text is not None else ():
                yield FlagSite(ref.flag, home, Path(os.path.realpath(path)), ref.line)


def duplicates(found: Iterable[FlagSite]) -> dict[str, list[FlagSite]]:
    """Flags registered by more than one extension, each with its first site per extension."""
    by_flag: dict[str, dict[str, FlagSite]] = {}
    for site in found:
        by_flag.setdefault(site.flag, {}).setdefault(site.extension, site)
    return {f: list(per.values()) for f, per in sorted(by_flag.items()) if len(per) > 1}


def unique(s: Subject) -> Iterator[Finding]:
    """registerFlag names unique across every extension pi loads from the agent dir."""
    existing(s)
    extensions = loaded_here(s)
    found = list(sites(extensions))
    clashes = duplicates(found)
    for flag, places in clashes.items():
        where = " and ".join(f"{p.file}:{p.line}" for p in places)
        yield warn(
            f"--{flag} is registered by {len(places)} extensions: {where}; at every start pi "
            f'reports each after the first as failed to load (Flag "--{flag}" conflicts with …), '
            "though it keeps them all loaded and the first one's flag wins",
            "rename the flag in all but one (a prefix per extension avoids this: --notify-…)",
        )
    if not clashes:
        names = {f.flag for f in found}
        yield ok(
            f"{count(len(names), 'flag')} across the {count(len(extensions), 'extension')} pi "
            "loads here (ext's own included), no name registered twice"
        )
