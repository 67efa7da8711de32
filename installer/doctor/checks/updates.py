"""Newer versions of ext, the host and the set, from the update cache: never the network."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from installer.doctor.finding import Finding, Skip, info
from installer.doctor.subject import Subject

NO_CACHE = "no update information cached yet"


def cached(s: Subject) -> Iterator[Finding]:
    """What the last background check found; doctor never waits on, or asks, the network."""
    if s.manifest is not None and not s.manifest.update_check:
        raise Skip("update checks are off for this set ([updates] check = false)")
    try:
        from installer.updates import cached_report, doctor_findings
        from installer.updates.check import HostFacts
    except (ImportError, AttributeError):  # an ext without the update checks
        yield info(NO_CACHE)
        return
    from installer.host.set_command import SET_WITHHELD, set_trusted

    tested = s.manifest.host_tested if s.manifest is not None else None
    report = cached_report(host=HostFacts.from_info(s.host(), tested), set_dir=s.set_root)
    source = s.agent_source or ""
    trusted = set_trusted(s.set_root, s.set_source, s.agent_dir, source)
    for found in doctor_findings(report):
        # One row per thing (`updates.method`, `updates.ext`, …): ids stay unique in --json.
        row = "updates." + found.id.split(".", 1)[-1]
        message = f"ext: {found.message}" if found.id == "update.method" else found.message
        if row == "updates.set" and not trusted:  # update --check would not ask either
            yield replace(found, id=row, level="info", message=f"the set: {SET_WITHHELD}", fix=None)
            continue
        yield replace(found, id=row, message=message)
