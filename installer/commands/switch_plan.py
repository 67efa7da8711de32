"""The pure part of enable/disable/toggle: what is on now, and the actions that switch it.

Link mode renames our link (`notify.ts` <-> `notify.ts.off`; a folder's link moves to and
from `<kind>/.off/<name>`, since pi still loads a folder called `foo.off`). Register mode adds
or drops the package entry's `-path` filters (for every kind). Only ours are switched: anything else
of that name is reported and left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from installer.commands.listing import Item as Listed
from installer.commands.listing import classify
from installer.commands.settings_plan import registered
from installer.context import Context
from installer.links.scan import scan
from installer.plan import Action
from installer.resources import Resource
from installer.state import load_state

SWITCHABLE = ("enabled", "disabled")


@dataclass(frozen=True)
class Item:
    """One resource's state as far as switching goes."""

    resource: Resource
    state: str  # enabled | disabled | not-installed | conflict | stale | foreign
    path: str
    note: str | None = None

    @property
    def switchable(self) -> bool:
        return self.state in SWITCHABLE


@dataclass(frozen=True)
class View:
    """What is switched on and off now: the mode, each item, and register mode's filters."""

    mode: str
    items: Mapping[Resource, Item]
    taken: frozenset[str]  # every path the scan found (link mode)
    filters: tuple[str, ...] | None  # register mode: our entry's exclusions; None = unregistered


def read_view(ctx: Context, mode: str, resources: Sequence[Resource]) -> View:
    """Scan the agent dir (link mode) or settings.json (register mode). Reads only."""
    if mode == "link":
        state = load_state(ctx.agent_dir)
        agent = scan(ctx.agent_dir, ctx.set_root, state.old_roots(ctx.set_root, ctx.manifest.name))
        items = {r: _item(classify(agent, r)) for r in resources}
        return View(mode, items, frozenset(agent.entries), None)
    from installer.settings.packages import exclusions_of

    entries = registered(ctx)
    filters = exclusions_of(entries[0]) if entries else None
    return View(mode, {r: register_item(r, filters) for r in resources}, frozenset(), filters)


def _item(found: Listed) -> Item:
    return Item(found.resource, found.state, found.path, found.note)


def filter_of(r: Resource) -> tuple[str, ...]:
    """The register-mode filters that switch r off."""
    return r.filters


def register_item(r: Resource, filters: tuple[str, ...] | None) -> Item:
    """A resource's state in register mode, from our package entry's filters."""
    if filters is None:
        return Item(r, "not-installed", "settings.json", "the set is not registered: `ext install`")
    state = "disabled" if any(f in filters for f in filter_of(r)) else "enabled"
    return Item(r, state, "settings.json")


@dataclass(frozen=True)
class Switch:
    """The pure outcome of planning a switch."""

    actions: tuple[Action, ...]
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    turned_on: tuple[Resource, ...]
    turned_off: tuple[Resource, ...]
    filters: tuple[str, ...] | None  # register mode: the entry's exclusions afterwards


def plan_switch(view: View, want: Mapping[Resource, bool], set_root: str) -> Switch:
    """Actions that bring each wanted resource to on (True) or off (False). Pure."""
    actions: list[Action] = []
    warnings: list[str] = []
    notes: list[str] = []
    on: list[Resource] = []
    off: list[Resource] = []
    filters = list(view.filters) if view.filters is not None else None
    for r, enable in want.items():
        item = view.items[r]
        word = "enabled" if enable else "disabled"
        if item.state == word:
            actions.append(Action("keep", item.path, detail=f"{r.label} already {word}"))
            notes.append(f"{r.label} is already {word}; nothing to do for it")
        elif not item.switchable:
            actions.append(Action("skip", item.path, detail=item.note or item.state))
            warnings.append(_not_switched(item, word))
        elif filters is not None:
            actions.append(_filter(r, enable, filters, set_root))
            (on if enable else off).append(r)
        else:
            src, dst = (r.disabled_dest, r.dest) if enable else (r.dest, r.disabled_dest)
            if dst in view.taken:
                actions.append(Action("skip", src, detail=f"{dst} is in the way"))
                warnings.append(
                    f"{r.label} was not {word}: {dst} is in the way and is not ours; "
                    "move it aside, then run this again"
                )
                continue
            actions.append(Action("enable" if enable else "disable", src, target=dst))
            (on if enable else off).append(r)
    done = tuple(filters) if filters is not None else None
    return Switch(tuple(actions), tuple(warnings), tuple(notes), tuple(on), tuple(off), done)


def _filter(r: Resource, enable: bool, filters: list[str], set_root: str) -> Action:
    from installer.settings.packages import shown

    mine = filter_of(r)
    words = ", ".join(map(shown, mine))
    if enable:
        filters[:] = [f for f in filters if f not in mine]
        detail = f"enable {r.label}: drops {words}"
    else:
        filters.extend(f for f in mine if f not in filters)
        detail = f"disable {r.label}: adds {words}"
    return Action("filter", "settings.json", target=set_root, detail=detail)


def _not_switched(item: Item, word: str) -> str:
    why = {
        "not-installed": "it is not installed",
        "foreign": "the entry of that name is not ours",
        "conflict": "the entry of that name is not ours",
        "stale": "its link is stale",
    }.get(item.state, item.state)
    note = f" ({item.note})" if item.note else ""
    return f"{item.resource.label} was not {word}: {why}{note}; left as it is"
