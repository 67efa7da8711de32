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
    from installer.settings.switches import registered_states

    blank = [Item(r, "not-installed", "settings.json") for r in resources]
    off: dict[Resource, None] = {}
    for root in (*old, *(() if only_old else (ctx.set_root,))):
        found = registered_states(ctx, blank, root)
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


def moved_off(ctx: Context, resources: tuple[Resource, ...]) -> tuple[list[Resource], list[str]]:
    """Items the set's packages entry kept off at a path the set no longer has, on now at
    another path of the same name and kind (a package's author moved the file), and those
    dead filters: in link mode the parked link is relinked and the item stays off; register
    mode carries the switch to the new path so, in place of the dead one (helper-32:
    `-src/lib/gamma.ts` stayed, naming nothing, and gamma came back on)."""
    from installer.settings.packages import tag
    from installer.settings.switches import KEYS, package_entries, scopes_of

    entries = [e for _, e in package_entries(scopes_of(ctx), ctx.set_root) if isinstance(e, dict)]
    if not entries:
        return [], []
    off = set(off_in_entry(ctx, resources, []))
    by_name: dict[tuple[str, str], Resource] = {
        (r.kind, r.name): r for r in resources if r not in off
    }
    moved: dict[Resource, None] = {}
    dead: list[str] = []
    for entry in entries:
        for kind, key in KEYS.items():
            patterns = entry.get(key)
            for p in patterns if isinstance(patterns, list) else ():
                if not isinstance(p, str) or not p.startswith("-") or any(c in p for c in "*?["):
                    continue
                if os.path.lexists(ctx.set_root / p[1:]):
                    continue  # it names a file still there: a switch of that item
                r = by_name.get((kind, _named(p[1:])))
                if r is not None:
                    moved[r] = None
                    dead.append(tag(key, p))
    return list(moved), dead


def _named(rel: str) -> str:
    """The item a path of the set names: `src/lib/gamma.ts` and `x/gamma/index.ts` gamma."""
    parts = rel.rstrip("/").split("/")
    last = parts[-1]
    if last in ("index.ts", "index.js", "SKILL.md") and len(parts) > 1:
        return parts[-2]
    return last.rpartition(".")[0] or last
