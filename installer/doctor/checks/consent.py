"""Hook consent: approved projects whose hooks changed since, or that are gone."""

from __future__ import annotations

from collections.abc import Iterator

from installer.doctor.checks.agent import existing
from installer.doctor.finding import Finding, count, info, ok, warn
from installer.doctor.subject import Subject


def approvals(s: Subject) -> Iterator[Finding]:
    """Each approval whose project's hooks are no longer the approved ones."""
    from installer.consent.commands import list_approvals

    result = list_approvals(existing(s))
    for line in result.warnings:
        yield warn(line)
    for entry in result.entries:
        if entry.state == "changed":
            yield warn(
                f"the hooks of {entry.project} changed since you approved them "
                f"({entry.approved_at}); they will not run until approved again",
                f"ext consent approve {entry.project}",
            )
        elif entry.state == "missing":
            yield info(
                f"{entry.project} (approved {entry.approved_at}) no longer exists",
                f"ext consent revoke {entry.project}",
            )
    current = sum(e.state == "current" for e in result.entries)
    if current == len(result.entries) and not result.warnings:
        what = count(current, "approved project") if current else "no approved projects"
        yield ok(f"{what}; no hooks changed since approval")
