"""`ext list`: every item of the set and its state (read only)."""

from __future__ import annotations

from installer.ground.context import Context
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from installer.links.states import Item


class Listing(NamedTuple):
    """`ext list` takes no options."""


class Items(NamedTuple):
    """The set, the agent dir, the install mode, each item's state, and what the states rest
    on that the person should know (a settings file pi reads as empty)."""

    ctx: Context
    mode: str
    items: tuple[Item, ...]
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        from installer.links.states import with_guard

        ctx = self.ctx
        return {
            "set": str(ctx.set_root),
            "host": ctx.on.name,
            "agent_dir": str(ctx.agent_dir),
            "mode": self.mode,
            "items": [with_guard(i.to_json(), ctx.manifest) for i in self.items],
            "warnings": list(self.warnings),
        }


def list_items(ctx: Context, options: Listing) -> Items:
    """Read the agent dir once and classify every item of the set."""
    from installer.links.states import items

    mode, found = items(ctx)
    return Items(ctx, mode, tuple(with_shared(ctx, mode, found)), unread(ctx))


def unread(ctx: Context) -> tuple[str, ...]:
    """A settings file pi reads as empty, or ext could not read, said once with why and the
    fix: each state it would set reads as if it were not there, and without a word it looked
    like a set not installed (helper-51; helper-56: "ext doctor says the fix" of a project's
    file doctor does not check)."""
    if not ctx.on.is_pi:
        return ()
    from installer.settings.switches import scopes_of

    return tuple(
        f"{s.unread}; so does this list" + (f" (fix: {s.fix})" if s.fix else "")
        for s in scopes_of(ctx)
        if s.unread
    )


def with_shared(ctx: Context, mode: str, found: list[Item]) -> list[Item]:
    """A note on each skill that pi would meet twice: the set's and a shared folder's. Not
    another host's list (helper-28): those read shared folders by rules of their own, which
    their install and doctor say (installer.hosts.shared)."""
    if not ctx.on.is_pi:
        return found
    from installer.sets.shared_skills import twins_here

    live = [i.resource for i in found if i.state in ("enabled", "not-installed")]
    twins = {t.resource: t for t in twins_here(ctx, live, mode)}
    if not twins:
        return found
    return [_noted(i, twins[i.resource].note) if i.resource in twins else i for i in found]


def _noted(item: Item, note: str) -> Item:
    return item._replace(note=f"{item.note}; {note}" if item.note else note)
