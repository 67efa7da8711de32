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
from installer.links.put_in import filter_line, is_left_out, put_in, top_level
from installer.links.scan import AgentState, scan
from installer.links.states import Item as Listed
from installer.links.states import classify
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
    # Another agent's folder holds it (state "shared"): the command that takes it from here.
    switched_by: str | None = None
    held_by: str | None = None  # another set's link holds its place: that set's folder
    # Linked here and live in a shared folder the host reads too (state "shared"): the install
    # of this dir that drops the link here (helper-55), as a command.
    drops_link: str | None = None

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
    # Link mode: items linked in place and parked too, the two links alike (an install.sh
    # run again after a disable): the one in place is the one to take away.
    twins: frozenset[Resource] = frozenset()

    def puttable(self, r: Resource) -> bool:
        """Whether r is not installed but an enable (or a disable) would put it in: what an
        install's --only/--skip left out (link mode: new in the set too)."""
        return r in self.left_out or is_left_out(self, self.items[r])


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
    return View("link", items, frozenset(agent.entries), packaged, twins=_twins(agent, resources))


def _twins(agent: AgentState, resources: Sequence[Resource]) -> frozenset[Resource]:
    """The items whose link in place and whose parked link are alike, and both of ours."""
    twins = []
    for r in resources:
        here, parked = agent.entries.get(r.dest), agent.entries.get(r.disabled_dest)
        if here is None or parked is None or here.kind != "link" or parked.kind != "link":
            continue
        if here.owner == parked.owner == "ours" and here.real == parked.real:
            twins.append(r)
    return frozenset(twins)


def _shared_here(ctx: Context, items: list[Item]) -> list[Item]:
    """An item the host reads from a shared folder where ext linked it for another host:
    switched there, by that host's command, not here (an enable here would load it twice)."""
    from installer.ground.shellword import shell_word
    from installer.hosts.shared import shared_items

    # Linked here too (enabled): the host finds it twice, and a disable here would leave it
    # loaded from the shared folder (helper-55: Gemini CLI, its install before Codex CLI's).
    places = shared_items(ctx, items, ("not-installed", "disabled", "enabled"))
    out = []
    for i in items:
        if i.resource in places:
            at = places[i.resource]
            place = f"--host {ctx.on.name} --agent-dir {shell_word(ctx.agent_dir)}"
            doubled = f"ext {place} install" if i.state == "enabled" else None
            i = replace(  # noqa: PLW2901
                i,
                state="shared",
                path=at.path,
                note=at.note,
                switched_by=at.switched_by,
                drops_link=doubled,
            )
        out.append(i)
    return out


def _item(found: Listed, linked: bool = False) -> Item:
    # In link mode a packages entry's switch is only ever read for an item that is not linked
    # in place (installer/settings/switches.view_linked): on, it is what loads the item.
    by_entry = linked and found.state == "enabled" and found.pi is not None and found.pi.package
    return Item(
        found.resource,
        found.state,
        found.path,
        found.note,
        found.pi,
        by_entry,
        held_by=found.held_by,
    )


def filter_of(r: Resource) -> tuple[str, ...]:
    """The filters that switch r off in its packages entry, as pi config writes them."""
    return r.filters


class Blocked(NamedTuple):
    """An item a switch leaves as it is, for an entry not ours in its place; and the fix."""

    label: str
    why: str
    fix: str


@dataclass(frozen=True)
class Switch:
    """The pure outcome of planning a switch."""

    actions: tuple[Action, ...]
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    turned_on: tuple[Resource, ...]
    turned_off: tuple[Resource, ...]
    flips: tuple[Flip, ...]  # pi's own patterns to switch (the entry, or the top-level array)
    blocked: tuple[Blocked, ...] = ()  # items left as they are: an entry not ours is there


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
    blocked: list[Blocked] = []
    for r, enable in want.items():
        item = view.items[r]
        word = "enabled" if enable else "disabled"
        if item.state == word:
            actions.append(Action("keep", item.path, detail=f"{r.label} already {word}"))
            notes.append(f"{r.label} is already {word}")
        elif r in view.left_out or is_left_out(view, item):
            put = put_in(view, item, enable, set_root, style)
            actions.extend(put.actions)
            flips.extend(put.flips)
            (on if enable else off).append(r)
        elif not item.switchable:
            left = _left_as_is(item, enable)
            actions.append(left.action)
            (notes if left.fine else warnings).append(left.said)
            blocked.extend(left.blocked)
        elif view.mode == "register":
            flips.extend(Flip(True, KEYS[r.kind], p, enable) for p in package_paths(r))
            shown = item.pi.pattern if item.pi is not None else ""
            actions.append(filter_line(r, enable, set_root, "its packages entry", pattern=shown))
            (on if enable else off).append(r)
        elif not enable and item.path == r.dest and (style == "pi" or r in view.packaged):
            # Parked, the item would load from the set's packages entry; pi's -path on the link
            # holds, since pi prefers the link to the package's copy of a file.
            flips.append(Flip(False, KEYS[r.kind], path_of(r), False))
            actions.append(filter_line(r, False, "", top_level(r)))
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
                target = mine[0].target
                fix = (
                    f"move {target} out of the agent dir (ext never moves a file of yours); "
                    "then run this again"
                )
                blocked.append(Blocked(r.label, f"{target} is in the way and is not ours", fix))
                continue
            if enable and item.pi is not None and not item.pi.on:
                flips.append(Flip(False, KEYS[r.kind], path_of(r), True))
                actions.append(filter_line(r, True, "", top_level(r), pattern=item.pi.pattern))
            (on if enable else off).append(r)
    return Switch(
        tuple(actions),
        tuple(warnings),
        tuple(notes),
        tuple(on),
        tuple(off),
        tuple(flips),
        tuple(blocked),
    )


def _held_by_another(item: Item, enable: bool) -> Blocked:
    """An item whose place holds another set's link, a link elsewhere, or a file of the
    user's (the item's note says which): what its switch waits for."""
    r = item.resource
    note = item.note or ""
    if item.held_by is not None:
        # The set whose link it is, named so that the fix pastes (helper-35, helper-36).
        from installer.ground.shellword import shell_word

        root = shell_word(Path(item.held_by))
        if enable:
            fix = (
                f"that set's {r.label} holds the place, on or off: uninstall it first (`ext "
                f"--set {root} uninstall`), or leave this one out (`ext install --skip "
                f"{shell_word(r.label)}`)"
            )
            return Blocked(r.label, f"{item.path}: {note}", fix)
        fix = f"switch it with that set: `ext --set {root} disable {shell_word(r.label)}`"
    else:
        fix = f"`ext install` backs it up and links the set's {r.label} in its place"
    return Blocked(r.label, f"{item.path}: {note or 'not ours'}", f"{fix}; then run this again")


class Left(NamedTuple):
    """An item a switch cannot switch here: its plan line, what is said, and why a switch by
    name is refused (none when there is nothing to switch: `fine`)."""

    action: Action
    said: str
    blocked: tuple[Blocked, ...] = ()
    fine: bool = False


def _left_as_is(item: Item, enable: bool) -> Left:
    r = item.resource
    word = "enabled" if enable else "disabled"
    if item.state == "shared" and enable:  # loaded here from another agent's folder: on
        keep = Action("keep", item.path, detail=f"{r.label} already {word}")
        return Left(keep, f"{r.label} is already {word} ({item.note}); nothing to do", fine=True)
    skip = Action("skip", item.path, detail=item.note or item.state)
    said = _not_switched(item, word)
    parked = item.path == r.disabled_dest and item.held_by is not None
    if parked and not enable:  # another set's, off there; this set's not in: off already
        keep = Action("keep", item.path, detail=f"{r.label}: another set's, off there")
        said = f"{r.label} is off here: another set's {r.label} is switched off, this set's not in"
        return Left(keep, f"{said}; nothing to do", fine=True)
    if item.state in ("conflict", "foreign"):
        return Left(skip, said, (_held_by_another(item, enable),))
    if item.state == "shared":
        return Left(skip, said, (_read_elsewhere(item),))
    return Left(skip, said)


def _read_elsewhere(item: Item) -> Blocked:
    """An item the host loads from a folder ext linked it into for another agent: switched
    off there, which takes it from both (helper-28: a disable here wrote nothing and exited
    0; the agent that reads hidden folders kept even a parked one)."""
    folder = item.path.rpartition("/")[0]
    how = item.switched_by or f"leave it out of the install that links it into {folder}"
    if folder.endswith("/.off"):  # off there already, and loaded all the same (helper-50)
        fix = f"remove the link parked there, which it loads all the same: {how}"
        return Blocked(
            item.resource.label, f"it loads here from {folder}, where ext parked it", fix
        )
    fix = f"switch it off where it is linked, which takes it from that agent too: {how}"
    if item.drops_link:  # and from its own link here: two copies, said at install and doctor
        fix = f"`{item.drops_link}` first, which drops its link here; then {fix}"
        why = f"it loads here from {folder} too, where ext linked it: a second copy"
        return Blocked(item.resource.label, why, fix)
    return Blocked(item.resource.label, f"it loads here from {folder}, where ext linked it", fix)


def _link_switch(view: View, item: Item, enable: bool) -> list[Action]:
    """The rename that switches a link of ours; none when only pi's `-path` keeps it off."""
    r = item.resource
    if enable and item.path == r.dest:
        return []  # linked and in place: pi's own switch is what keeps it off
    src, dst = (r.disabled_dest, r.dest) if enable else (r.dest, r.disabled_dest)
    if not enable and r in view.twins:
        return [Action("unlink", src, detail=f"the same link is parked as {dst}, which stays")]
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
        detail = f"stays off: -{path_of(r)} in {top_level(r)}"
        actions.append(Action("link", r.dest, target=a.target, detail=detail))
        if it.pi is None or it.pi.on:
            flips.append(Flip(False, KEYS[r.kind], path_of(r), False))
    return Unpark(tuple(actions), tuple(flips), tuple(warnings))


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
