"""A bare name that means items of two kinds (`uv`: an extension and a skill) switches both:
each of their plan lines says so, with the prefixed name that picks one alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from installer.engine.plan import Action
from installer.ground.context import Context
from installer.links.switch import View, plan_switch
from installer.sets.resources import Resource, twins


def hinted(
    actions: tuple[Action, ...],
    ctx: Context,
    view: View,
    want: Mapping[Resource, bool],
    named: Sequence[str],
) -> tuple[Action, ...]:
    """The plan's actions, the lines of each twin carrying its hint (shown before the y/N)."""
    hints = twins(list(want), named)
    if not hints:
        return actions
    # The planner is pure: an item planned alone gives the very lines it adds to the whole plan.
    lines = {
        a: hint
        for r, hint in hints.items()
        for a in plan_switch(view, {r: want[r]}, str(ctx.set_root), ctx.manifest.switch).actions
    }
    return tuple(
        a._replace(detail="; ".join(filter(None, (a.detail, lines[a])))) if a in lines else a
        for a in actions
    )
