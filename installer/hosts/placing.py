"""A set's items as one host takes them: each in the host's folder for its kind, and the kinds
the host has no place for, with the reason a plan says."""

from __future__ import annotations

from installer.ground.context import home_of
from installer.ground.records import NamedTuple
from installer.hosts.profile import folder_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.ground.context import Context
    from installer.sets.resources import Resource


class Placed(NamedTuple):
    """What the set has for this host: `items` the link engine links, `written` the ones ext
    writes in the host's own format (Gemini CLI's TOML commands), `absent` the rest, with why."""

    items: tuple[Resource, ...]
    written: tuple[Resource, ...] = ()
    absent: tuple[tuple[Resource, str], ...] = ()


def placed(ctx: Context, resources: tuple[Resource, ...] | None = None) -> Placed:
    """The set's items (`discover`'s, unless given) as the context's host takes them."""
    if resources is None:
        resources = _discovered(ctx)
    host = ctx.on
    if host.is_pi:
        return Placed(resources)
    home = home_of(ctx.env)
    items: list[Resource] = []
    written: list[Resource] = []
    absent: list[tuple[Resource, str]] = []
    for r in resources:
        place = host.place(r.kind)
        if place is None:
            absent.append((r, host.why_not.get(r.kind, f"{host.title} takes no {r.kind}")))
            continue
        here = r._replace(folder=folder_of(place, home))
        if place.form == "link":
            items.append(here)
        else:
            from installer.hosts.toml_commands import toml_name

            written.append(here._replace(filename=toml_name(r.filename), written=place.form))
    return Placed(tuple(items), tuple(written), tuple(absent))


def _discovered(ctx: Context) -> tuple[Resource, ...]:
    """The set's items; for another host, when a kind it takes none of cannot be read (an
    extension named `--help.ts`, extensions/ leading out of the set), the kinds it takes."""
    from installer.ground.errors import ExtError
    from installer.sets.resources import KINDS, discover

    try:
        return discover(ctx.set_root, ctx.pi_line())
    except ExtError:
        taken = tuple(k for k in KINDS if ctx.on.place(k) is not None)
        if ctx.on.is_pi or taken == KINDS:
            raise
        return discover(ctx.set_root, ctx.pi_line(), taken)  # its own kinds' errors stand


def set_items(ctx: Context, resources: tuple[Resource, ...] | None = None) -> tuple[Resource, ...]:
    """The items this host takes, linked or written: all of a set's for pi."""
    where = placed(ctx, resources)
    return (*where.items, *where.written)
