"""An item not installed in a set installed here, switched by putting it in: what an install's
--only/--skip left out (link mode: or new in the set). An enable puts it in; a disable puts it in
switched off, off for good (a plain install keeps it off): link mode's is a link, in place or
parked (or in place, off by pi's `-path`, when the set's switch is pi's); register mode's is
ext's own filter, which goes, or stays as the user's switch (ext's record says so). And the
settings lines a switch shows (pi's patterns), which plan_switch shares.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from installer.engine.plan import Action, StateWrite
from installer.ground.records import NamedTuple
from installer.links.states import LEFT_OUT, LEFT_OUT_OR_NEW, places_free
from installer.sets.resources import Resource
from installer.settings.plan import Flip, claimed
from installer.settings.switches import KEYS, package_paths, path_of

if TYPE_CHECKING:
    from installer.links.switch import Item, View

_LEFT_OUT = {"register": LEFT_OUT, "link": LEFT_OUT_OR_NEW}


class PutIn(NamedTuple):
    """The plan lines of one item put in, and pi's patterns they switch."""

    actions: tuple[Action, ...]
    flips: tuple[Flip, ...]


def put_in(view: View, item: Item, enable: bool, set_root: str, style: str) -> PutIn:
    """The lines that put a left-out item in: on (`enable`), or switched off for good."""
    r = item.resource
    # A disable of such an item: put in, switched off; a plain install keeps it off.
    why = f"not installed: {_LEFT_OUT[view.mode]}"
    why = why if enable else f"{why}; now in, off for good"
    if view.mode == "register" and enable:
        flips = tuple(Flip(True, KEYS[r.kind], p, True) for p in package_paths(r))
        return PutIn((filter_line(r, True, set_root, "its packages entry", why),), flips)
    if view.mode == "register":  # the filter is there: ext's record makes it the user's
        return PutIn((_claim(r, set_root),), ())
    off_by_pi = item.pi is not None and not item.pi.on  # a `-path` of pi config's is there
    if enable:  # that `-path` would keep it off: it goes
        link = Action("link", r.dest, target=r.source, detail=why)
        flips = (Flip(False, KEYS[r.kind], path_of(r), True),) if off_by_pi else ()
        lines = (link, filter_line(r, True, "", top_level(r))) if off_by_pi else (link,)
        return PutIn(lines, flips)
    if style == "pi":  # in place, off by pi's `-path` (written first, unless it is there)
        link = Action("link", r.dest, target=r.source, detail=why)
        if off_by_pi:
            return PutIn((link,), ())
        flip = Flip(False, KEYS[r.kind], path_of(r), False)
        return PutIn((filter_line(r, False, "", top_level(r), why), link), (flip,))
    return PutIn((Action("link", r.disabled_dest, target=r.source, detail=why),), ())


def _claim(r: Resource, set_root: str) -> Action:
    """Register mode: ext's filter of an install's --skip, kept in settings.json as it is, is
    the user's switch from now on (ext's record): a plain install keeps the item off."""
    mine = r.filters
    patterns = ", ".join(f"-{p}" for p in package_paths(r))
    detail = f"{r.label}: {patterns} stays in its packages entry, yours now: off for good"
    write = StateWrite(lambda state: claimed(state, Path(set_root), mine))
    return Action("claim", ".extset/state.json", target=set_root, detail=detail, payload=write)


def is_left_out(view: View, item: Item) -> bool:
    """Link mode: an item of the set installed here that has no link of its own, and whose
    place is free: what an install's selection left out, which an enable links. Not one a
    host's file stands for (Gemini CLI's TOML command): ext writes that, it links no file."""
    linked = view.mode == "link" and not item.resource.written
    free = places_free(item.resource, view.taken)
    return linked and view.installed and item.state == "not-installed" and free


def top_level(r: Resource) -> str:
    """Where pi's own switch of a linked item stands: settings.json's array of its kind."""
    return f'settings.json "{KEYS[r.kind]}"'


def filter_line(
    r: Resource, enable: bool, set_root: str, where: str, why: str = "", pattern: str = ""
) -> Action:
    """A switch's settings line: the `-path` it adds or drops (the entry's, with `set_root`),
    and why (`why`: an item put in), else as pi config does it; `pattern`: the one that keeps
    it off now (pi's view), when it is written another way than pi config writes it."""
    paths = package_paths(r) if set_root else (path_of(r),)
    off = ", ".join(f"-{p}" for p in paths)  # a folder extension's files, each with its sign
    on = ", ".join(f"+{p}" for p in paths)
    if enable and why:  # ext's own filter of an install's --skip: no switch of pi config's
        detail = f"enable {r.label}: drops {off} from {where} ({why})"
    elif why:  # a `-path` for an item put in switched off
        detail = f"disable {r.label}: adds {off} to {where}; {why}"
    elif enable and pattern.startswith("-") and pattern != off:
        detail = f"enable {r.label}: drops {pattern} from {where} (pi reads it as this item)"
    elif enable and pattern and not pattern.startswith("-"):  # `!glob`, `only x`, `[]`
        detail = f"enable {r.label}: adds {on} to {where}, over {pattern}, as pi config would"
    elif enable:
        detail = f"enable {r.label}: drops {off} from {where}, as pi config would"
    else:
        detail = f"disable {r.label}: adds {off} to {where}, as pi config does"
    return Action("filter", "settings.json", target=set_root or None, detail=detail)
