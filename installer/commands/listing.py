"""`ext list`: every item of the set and its state (read only)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from installer.ground.context import Context

if TYPE_CHECKING:
    from installer.links.states import Item


class Listing(NamedTuple):
    """`ext list` takes no options."""


class Items(NamedTuple):
    """The set, the agent dir, the install mode and each item's state."""

    ctx: Context
    mode: str
    items: tuple[Item, ...]

    def to_json(self) -> dict[str, Any]:
        from installer.links.states import with_guard

        ctx = self.ctx
        return {
            "set": str(ctx.set_root),
            "agent_dir": str(ctx.agent_dir),
            "mode": self.mode,
            "items": [with_guard(i.to_json(), ctx.manifest) for i in self.items],
        }


def list_items(ctx: Context, options: Listing) -> Items:
    """Read the agent dir once and classify every item of the set."""
    from installer.links.states import items

    mode, found = items(ctx)
    return Items(ctx, mode, tuple(found))
