"""What an install leaves off, and whose switch that is: the items --only/--skip leave out,
the filters ext wrote for them (its own, which a later install may drop), and the items the
user switched off, in the set's packages entry or as linked, which every install keeps off."""

from __future__ import annotations

import os
from pathlib import Path

from installer.ground.context import Context
from installer.ground.state import State
from installer.links.scan import AgentState
from installer.links.states import classify
from installer.sets.resources import Resource
from installer.settings.plan import SKIPPED, excluded_filters


def recorded_skips(state: State, ctx: Context) -> tuple[str, ...]:
    """The filters an earlier register-mode install wrote for --only/--skip."""
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    if record is None or record.mode != "register":
        return ()
    return tuple(str(f) for f in record.extra.get(SKIPPED, ()) if isinstance(f, str))


def entry_filters(
    ctx: Context,
    resources: tuple[Resource, ...],
    old: list[Path],
    off: tuple[Resource, ...],
    skipped: list[str],
) -> tuple[str, ...]:
    """Register mode's filters: the items left out or switched off, and what the entry of the
    set's older place kept off."""
    moved = off_in_entry(ctx, resources, old, only_old=True)
    return tuple(dict.fromkeys((*skipped, *excluded_filters((*off, *moved)))))


def skip_filters(
    ctx: Context, left_out: tuple[Resource, ...], mine: tuple[str, ...], off: list[Resource]
) -> list[str]:
    """The filters of the items left out that are ext's to drop later: not those of an item
    the user (or pi config) had already switched off, in the entry or as linked (`off`),
    which a later plain install keeps."""
    if not left_out:
        return []
    was_off = [*off_in_entry(ctx, left_out, []), *off]
    theirs = {f for r in was_off for f in r.filters} - set(mine)
    return [f for f in excluded_filters(left_out) if f not in theirs]


def off_in_entry(
    ctx: Context, resources: tuple[Resource, ...], old: list[Path], only_old: bool = False
) -> list[Resource]:
    """Items the set's packages entry keeps off (ext's disable or pi config's), also an entry
    from where the set was before it moved: what a new entry or new links must carry over."""
    from installer.links.states import Item
    from installer.settings.switches import package_entries, registered_states, scopes_of

    named = (*old, *(() if only_old else (ctx.set_root,)))
    if not named:
        return []
    scopes = scopes_of(ctx)
    roots = [root for root in named if package_entries(scopes, root)]
    if not roots:
        return []  # no entry names the set: nothing to look up item by item
    blank = [Item(r, "not-installed", "settings.json") for r in resources]
    off: dict[Resource, None] = {}
    for root in roots:
        found = registered_states(ctx, blank, root, scopes)
        off.update((i.resource, None) for i in found if i.state == "disabled")
    return list(off)


def off_as_linked(
    ctx: Context, agent: AgentState, resources: tuple[Resource, ...]
) -> list[Resource]:
    """Items off in link mode, by our `.off` link or by pi's top-level `-path`: the switches a
    change to register mode must carry over. A parked item that a packages entry loads anyway
    is off by the user's switch all the same: register mode makes that switch hold."""
    from installer.settings.switches import with_pi

    items = [classify(agent, r) for r in resources]
    found = with_pi(ctx, items)
    return [
        i.resource
        for before, i in zip(items, found, strict=True)
        if "disabled" in (i.state, before.state)
    ]


def moved_off(
    ctx: Context, resources: tuple[Resource, ...], mine: tuple[str, ...] = ()
) -> list[tuple[Resource, str]]:
    """The `-path`s of the set's packages entry that name a file the set no longer has, each
    with the one item it most likely switched off, which is on now at another path (a
    package's author moved the file): said, not carried. In link mode the parked link is
    relinked and the item stays off; here no record tells which item a dead path was, and
    two reviews found a guess switching off an item the user never had (helper-33,
    helper-34), so the install warns with the disable that keeps it off (helper-32). Not
    ext's own filters of a --skip (`mine`), nor an item the entry switches on by a `+path`."""
    from installer.settings.packages import tag
    from installer.settings.switches import KEYS, package_entries, scopes_of

    entries = [e for _, e in package_entries(scopes_of(ctx), ctx.set_root) if isinstance(e, dict)]
    if not entries:
        return []
    off = set(off_in_entry(ctx, resources, []))
    out: list[tuple[Resource, str]] = []
    for entry in entries:
        for kind, key in KEYS.items():
            patterns = entry.get(key)
            listed = [p for p in patterns or () if isinstance(p, str)]
            for p in listed if isinstance(patterns, list) else ():
                if not p.startswith("-") or any(c in p for c in "*?[") or tag(key, p) in mine:
                    continue
                if os.path.lexists(ctx.set_root / p[1:]):
                    continue  # it names a file still there: a switch of that item
                r = _was_there(p[1:], [r for r in resources if r.kind == kind])
                if r is None or r in off or any(f"+{q}" in listed for q in _paths(r)):
                    continue  # none, or off already, or on by name there (pi config's `+`)
                out.append((r, p))
    return out


def _paths(r: Resource) -> list[str]:
    """The paths of the set its filters name (`src/util/gamma.ts`)."""
    from installer.settings.packages import untag

    return [untag(f)[1].removeprefix("-") for f in r.filters]


def _was_there(rel: str, candidates: list[Resource]) -> Resource | None:
    """The one item whose entry file `rel` (a path the set no longer has) most likely was:
    the most trailing parts in common (`lib/gamma.ts` ~ `util/gamma.ts`: 1; `box/main.ts` of
    a folder item ~ `tools/box/main.ts`: 2), a folder item needing its folder's name too;
    None when none shares the file name, or two share the most."""
    parts = rel.rstrip("/").split("/")
    scored = []
    for r in candidates:
        best = max((_common_tail(parts, now.split("/")) for now in _paths(r)), default=0)
        if best >= (2 if r.layout == "dir" else 1):
            scored.append((best, r))
    top = max((n for n, _ in scored), default=0)
    found = [r for n, r in scored if n == top]
    return found[0] if len(found) == 1 else None


def _common_tail(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n
