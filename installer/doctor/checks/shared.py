"""A skill of the set whose name a shared skills folder (`~/.agents/skills`, the project's
`.agents/skills`) holds too: pi loads one of the two and warns of a collision."""

from __future__ import annotations

from collections.abc import Iterator

from installer.doctor.checks.agent import existing
from installer.doctor.finding import Finding, Skip, count, ok, warn
from installer.doctor.subject import Subject
from installer.ground.errors import ExtError


def skills(s: Subject) -> Iterator[Finding]:
    """One warning per enabled skill pi also finds in a shared folder."""
    from installer.host.lines import line_of
    from installer.links.states import items
    from installer.sets.shared_skills import twins_here

    ctx = s.ctx
    if ctx is None and s.set_root is not None:
        existing(s)  # the agent dir's own reason: missing, or unknown
    if ctx is None:
        raise Skip("the set or the agent dir was not found (see set, agent.dir)")
    try:
        mode, found = items(ctx)
    except ExtError:
        raise Skip("the set's resources could not be read (see set.resources)") from None
    host = s.host()
    line = line_of(host.version, host.package) if host is not None else line_of()
    live = [i.resource for i in found if i.resource.kind == "skill" and i.state == "enabled"]
    twins = twins_here(ctx, live, mode, line)
    for t in twins:
        yield warn(f"{t.resource.label}: {t.what}", t.fix)
    if not twins:
        yield ok(
            f"no skill of the set is in a shared skills folder too ({count(len(live), 'skill')} on)"
        )
