"""The pure part of enable/disable/toggle: what is on now, and the actions that switch it.

Link mode renames our link (`notify.ts` <-> `notify.ts.off`; a folder's link moves to and
from `<kind>/.off/<name>`, since pi still loads a folder called `foo.off`); an enable also
clears a `-path` that `pi config` wrote in the top-level array. With `[set] switch = "pi"` a
disable keeps the link and writes that `-path` itself, so `pi config` lists the item; so does
any disable while a packages entry of the set would load the parked item (pi prefers the link).
Register mode switches the package entry's patterns exactly as `pi config` does
(installer/settings/switches.py). Only ours are switched: anything else of that name is
reported and left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from installer.engine.plan import Action
from installer.ground.context import Context
from installer.ground.records import NamedTuple
from installer.ground.state import load_state
from installer.links.scan import AgentState, scan
from installer.links.states import LEFT_OUT, classify
from installer.links.states import Item as Listed
from installer.sets.resources import Resource
from installer.settings.plan import Flip
from installer.settings.switches import KEYS, PiSwitch, package_paths, path_of

SWITCHABLE = ("enabled", "disabled")


@dataclass(frozen=True)
class Item:
    """One resource's state as far as switching goes."""

    resource: Resource
    state: str  # enabled | disabled | not-installed | conflict | stale | foreign | unsupported
    path: str
    note: str | None = None
    pi: PiSwitch | None = None
    # Link mode: not linked (or parked), yet loaded by a packages entry of the set, which no
    # rename of ext's stops. Register mode never: there the entry is ext's switch.
    from_package: bool = False

    @property
    def switchable(self) -> bool:
        return self.state in SWITCHABLE and not self.from_package


@dataclass(frozen=True)
class View:
    """What is switched on and off now: the mode, each item, and register mode's filters."""

    mode: str
    items: Mapping[Resource, Item]
    taken: frozenset[str]  # every path the scan found (link mode)
    # Link mode: items a packages entry of the set would load once their link is parked.
    packaged: frozenset[Resource] = frozenset()
    # Link mode: the set is installed here (its state record says so), so an item an
    # install's --only/--skip left out is linked by an enable, as register mode's is let in.
    installed: bool = False
    # Register mode: the items only ext's own filters of an install's --only/--skip keep out
    # (not-installed, as link mode says of them), which an enable lets in.
    left_out: frozenset[Resource] = frozenset()

    def puttable(self, r: Resource) -> bool:
        """Whether r is not installed but an enable (or a disable) would put it in: what an
        install's --only/--skip left out (link mode: new in the set too)."""
        return r in self.left_out or _left_out(self, self.items[r])


def read_view(ctx: Context, mode: str, resources: Sequence[Resource]) -> View:
    """Scan the agent dir (link mode) or settings.json (register mode), with pi's switches."""
    from installer.settings.switches import registered_states

    if mode == "link":
        state = load_state(ctx.agent_dir)
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        others = [Path(o.root) for o in state.others(ctx.set_root, ctx.manifest.name)]
        agent = scan(ctx.agent_dir, ctx.set_root, old, other_sets=others, folders=ctx.folders)
        here = state.record_of(ctx.set_root, ctx.manifest.name) is not None
        return replace(linked_view(ctx, agent, resources), installed=here)
    from installer.links.states import left_out
    from installer.settings.selection import recorded_skips

    note = "the set is not registered: `ext install`"
    found = registered_states(
        ctx, [Listed(r, "not-installed", "settings.json", note) for r in resources]
    )
    found = left_out(found, recorded_skips(load_state(ctx.agent_dir), ctx))
    out = frozenset(i.resource for i in found if i.left_out)
    return View(mode, {i.resource: _item(i) for i in found}, frozenset(), left_out=out)


def linked_view(ctx: Context, agent: AgentState, resources: Sequence[Resource]) -> View:
    """Link mode's view of a scanned agent dir, with pi's switches."""
    from installer.settings.switches import (
        package_entries,
        scopes_of,
        view_registered,
        with_pi,
    )

    if not ctx.on.is_pi:  # another host has no settings of pi's to switch an item by
        from installer.links.states import classify_here

        here = [_item(i, True) for i in classify_here(ctx, agent, resources)]
        here = _shared_here(ctx, here)
        return View("link", {i.resource: i for i in here}, frozenset(agent.entries))
    found = with_pi(ctx, [classify(agent, r) for r in resources])
    entries = package_entries(scopes_of(ctx), ctx.set_root)
    by_entry = [(r, view_registered(entries, ctx.set_root, r)) for r in resources if entries]
    packaged = frozenset(r for r, sw in by_entry if sw is None or sw.on)
    items = {i.resource: _item(i, True) for i in found}
    return View("link", items, frozenset(agent.entries), packaged)


def _shared_here(ctx: Context, items: list[Item]) -> list[Item]:
    """An item the host reads from a shared folder where ext linked it for another host:
    switched there, by that host's command, not here (an enable here would load it twice)."""
    from installer.hosts.shared import shared_places

    missing = tuple(i.resource for i in items if i.state == "not-installed")
    places = shared_places(ctx, ctx.on, missing)
    return [
        replace(i, state="shared", path=places[i.resource][0], note=places[i.resource][1])
        if i.resource in places
        else i
        for i in items
    ]


def _item(found: Listed, linked: bool = False) -> Item:
    # In link mode a packages entry's switch is only ever read for an item that is not linked
    # in place (installer/settings/switches.view_linked): on, it is what loads the item.
    by_entry = linked and found.state == "enabled" and found.pi is not None and found.pi.package
    return Item(found.resource, found.state, found.path, found.note, found.pi, by_entry)


def filter_of(r: Resource) -> tuple[str, ...]:
    """The filters that switch r off in its packages entry, as pi config writes them."""
    return r.filters


@dataclass(frozen=True)
class Switch:
    """The pure outcome of planning a switch."""

    actions: tuple[Action, ...]
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    turned_on: tuple[Resource, ...]
    turned_off: tuple[Resource, ...]
    flips: tuple[Flip, ...]  # pi's own patterns to switch (the entry, or the top-level array)


def plan_switch(
    view: View, want: Mapping[Resource, bool], set_root: str, style: str = "rename"
) -> Switch:
    """Actions that bring each wanted resource to on (True) or off (False). Pure.

    `style` is the manifest's `[set] switch`: how link mode switches an item off."""
    actions: list[Action] = []
    warnings: list[str] = []
    notes: list[str] = []
    on: list[Resource] = []
    off: list[Resource] = []
    flips: list[Flip] = []
    for r, enable in want.items():
        item = view.items[r]
        word = "enabled" if enable else "disabled"
        if item.state == word:
            actions.append(Action("keep", item.path, detail=f"{r.label} already {word}"))
            notes.append(f"{r.label} is already {word}; nothing to do for it")
        elif r in view.left_out or _left_out(view, item):
            put = _put_in(view, item, enable, set_root, style)
            actions.extend(put.actions)
            flips.extend(put.flips)
            (on if enable else off).append(r)
        elif not item.switchable:
            actions.append(Action("skip", item.path, detail=item.note or item.state))
            warnings.append(_not_switched(item, word))
        elif view.mode == "register":
            flips.extend(Flip(True, KEYS[r.kind], p, enable) for p in package_paths(r))
            actions.append(_filter(r, enable, set_root, "its packages entry"))
            (on if enable else off).append(r)
        elif not enable and item.path == r.dest and (style == "pi" or r in view.packaged):
            # Parked, the item would load from the set's packages entry; pi's -path on the link
            # holds, since pi prefers the link to the package's copy of a file.
            flips.append(Flip(False, KEYS[r.kind], path_of(r), False))
            actions.append(_filter(r, False, "", _top_level(r)))
            if style != "pi":
                notes.append(
                    f"{r.label} keeps its link and is off by pi's -path: parked, the set's "
                    "packages entry would load it (ext doctor: loaded-twice)"
                )
            off.append(r)
        else:
            mine = _link_switch(view, item, enable)
            actions.extend(mine)
            if any(a.action == "skip" for a in mine):
                warnings.append(
                    f"{r.label} was not {word}: {mine[0].target} is in the way and is not "
                    "ours; move it aside, then run this again"
                )
                continue
            if enable and item.pi is not None and not item.pi.on:
                flips.append(Flip(False, KEYS[r.kind], path_of(r), True))
                actions.append(_filter(r, True, "", _top_level(r)))
            (on if enable else off).append(r)
    return Switch(
        tuple(actions), tuple(warnings), tuple(notes), tuple(on), tuple(off), tuple(flips)
    )


# Link mode keeps no record of a --skip: an item not linked may be new in the set too.
_LEFT_OUT = {"register": LEFT_OUT, "link": f"{LEFT_OUT}, or it is new in the set"}


class _PutIn(NamedTuple):
    actions: tuple[Action, ...]
    flips: tuple[Flip, ...]


def _put_in(view: View, item: Item, enable: bool, set_root: str, style: str) -> _PutIn:
    """An item an install's --only/--skip left out, switched: an enable puts it in; a disable
    puts it in switched off, off for good (a plain install keeps it off). Register mode's is
    ext's own filter, which goes, or stays as the user's switch; link mode's is a link, in
    place or parked (or in place, off by pi's `-path`, when the set's switch is pi's)."""
    r = item.resource
    # A disable of such an item: put in, switched off; a plain install keeps it off.
    why = f"not installed: {_LEFT_OUT[view.mode]}"
    why = why if enable else f"{why}; now in, off for good"
    if view.mode == "register" and enable:
        flips = tuple(Flip(True, KEYS[r.kind], p, True) for p in package_paths(r))
        return _PutIn((_filter(r, True, set_root, "its packages entry", why),), flips)
    if view.mode == "register":  # the filter is there: ext's record makes it the user's
        return _PutIn((_claim(r, set_root),), ())
    off_by_pi = item.pi is not None and not item.pi.on  # a `-path` of pi config's is there
    if enable:  # that `-path` would keep it off: it goes
        link = Action("link", r.dest, target=r.source, detail=why)
        flips = (Flip(False, KEYS[r.kind], path_of(r), True),) if off_by_pi else ()
        lines = (link, _filter(r, True, "", _top_level(r))) if off_by_pi else (link,)
        return _PutIn(lines, flips)
    if style == "pi":  # in place, off by pi's `-path` (written first, unless it is there)
        link = Action("link", r.dest, target=r.source, detail=why)
        if off_by_pi:
            return _PutIn((link,), ())
        flip = Flip(False, KEYS[r.kind], path_of(r), False)
        return _PutIn((_filter(r, False, "", _top_level(r), why), link), (flip,))
    return _PutIn((Action("link", r.disabled_dest, target=r.source, detail=why),), ())


def _claim(r: Resource, set_root: str) -> Action:
    """Register mode: ext's filter of an install's --skip, kept in settings.json as it is, is
    the user's switch from now on (ext's record): a plain install keeps the item off."""
    from installer.engine.plan import StateWrite
    from installer.settings.plan import claimed

    mine = r.filters
    patterns = ", ".join(f"-{p}" for p in package_paths(r))
    detail = f"{r.label}: {patterns} stays in its packages entry, yours now: off for good"
    write = StateWrite(lambda state: claimed(state, Path(set_root), mine))
    return Action("claim", ".extset/state.json", target=set_root, detail=detail, payload=write)


def _left_out(view: View, item: Item) -> bool:
    """Link mode: an item of the set installed here that has no link of its own, and whose
    place is free: what an install's selection left out, which an enable links. Not one a
    host's file stands for (Gemini CLI's TOML command): ext writes that, it links no file."""
    r = item.resource
    free = r.dest not in view.taken and r.disabled_dest not in view.taken
    linked = view.mode == "link" and not r.written
    return linked and view.installed and item.state == "not-installed" and free


def _link_switch(view: View, item: Item, enable: bool) -> list[Action]:
    """The rename that switches a link of ours; none when only pi's `-path` keeps it off."""
    r = item.resource
    if enable and item.path == r.dest:
        return []  # linked and in place: pi's own switch is what keeps it off
    src, dst = (r.disabled_dest, r.dest) if enable else (r.dest, r.disabled_dest)
    if dst in view.taken:
        return [Action("skip", src, target=dst, detail=f"{dst} is in the way")]
    return [Action("enable" if enable else "disable", src, target=dst)]


class Unpark(NamedTuple):
    """Install's link actions with parked links brought back in place, and their `-path`s."""

    actions: tuple[Action, ...]
    flips: tuple[Flip, ...]
    warnings: tuple[str, ...]


def plan_unpark(view: View, links: Sequence[Action]) -> Unpark:
    """`switch = "pi"`: each link of ours parked as `.off` goes back in place, kept off by pi's
    own `-path` instead, so `pi config` lists it; still off, since install never re-enables.
    Pure: `links` are install's link actions, of which only a parked link's `keep` changes."""
    parked = {
        it.path: it
        for it in view.items.values()
        if it.state == "disabled" and it.path == it.resource.disabled_dest
    }
    actions: list[Action] = []
    flips: list[Flip] = []
    warnings: list[str] = []
    for a in links:
        it = parked.get(a.path) if a.action == "keep" else None
        if it is None:
            actions.append(a)
            continue
        r = it.resource
        if r.dest in view.taken:
            actions.append(a)
            warnings.append(
                f"{r.label} stays parked as {r.disabled_dest}, where pi config cannot list it: "
                f"{r.dest} is in the way"
            )
            continue
        actions.append(Action("unlink", r.disabled_dest, target=a.target, detail="parked"))
        detail = f"stays off: -{path_of(r)} in {_top_level(r)}"
        actions.append(Action("link", r.dest, target=a.target, detail=detail))
        if it.pi is None or it.pi.on:
            flips.append(Flip(False, KEYS[r.kind], path_of(r), False))
    return Unpark(tuple(actions), tuple(flips), tuple(warnings))


def _top_level(r: Resource) -> str:
    return f'settings.json "{KEYS[r.kind]}"'


def _filter(r: Resource, enable: bool, set_root: str, where: str, why: str = "") -> Action:
    paths = package_paths(r) if set_root else (path_of(r),)
    path = ", -".join(paths)
    if enable and why:  # ext's own filter of an install's --skip: no switch of pi config's
        detail = f"enable {r.label}: drops -{path} from {where} ({why})"
    elif why:  # a `-path` for an item put in switched off
        detail = f"disable {r.label}: adds -{path} to {where}; {why}"
    elif enable:
        detail = f"enable {r.label}: drops -{path} from {where}, as pi config would"
    else:
        detail = f"disable {r.label}: adds -{path} to {where}, as pi config does"
    return Action("filter", "settings.json", target=set_root or None, detail=detail)


def _not_switched(item: Item, word: str) -> str:
    why = {
        "not-installed": "it is not installed",
        "shared": "it is not linked here",
        "foreign": "the entry of that name is not ours",
        "conflict": "the entry of that name is not ours",
        "stale": "its link is stale",
        "unsupported": "only extensions can be switched in register mode",
        "enabled": "pi loads it from a packages entry of the set, not from a link ext could "
        "switch (ext doctor: loaded-twice)",
    }.get(item.state, item.state)
    note = f" ({item.note})" if item.note and not item.from_package else ""
    return f"{item.resource.label} was not {word}: {why}{note}; left as it is"
