"""Pure planning: an AgentState and a selection in, a Plan of link actions out. No disk."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from installer.engine.plan import Action, Plan
from installer.ground.backups import Namer, stamp
from installer.links.scan import AgentState, Entry
from installer.sets.resources import Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.ground.clock import When

NO_ITEM = "no item of the set goes here now"


def plan_install(
    state: AgentState,
    resources: Iterable[Resource],
    selected: Iterable[Resource],
    now: When | Callable[[], When],
    parked: Iterable[Resource] = (),
    off_now: Iterable[Resource] = (),
    strays: Iterable[tuple[str, Entry]] = (),
) -> Plan:
    """Link every selected resource; unlink ours of the others; back up what is in the way;
    prune our dangling links, and `strays` (installer/links/strays.py: links ext made for an
    item the set no longer has, which the host loads all the same).

    The selection is what is installed: an item --only/--skip leaves out loses its link of
    ours, unless it is off (`off_now`: parked, or pi's `-path`), which is the user's switch and
    stays, since install never re-enables. `parked` are resources the user switched off in
    register mode: a new link of theirs is made in its disabled form, selected or not.
    """
    chosen = {(r.kind, r.filename) for r in selected}  # cheap keys; a set names each once
    off = {(r.kind, r.filename) for r in parked}
    kept_off = {(r.kind, r.filename) for r in off_now}
    # The clock is read only when something is backed up (a no-op is then clock-free: replay).
    names = Namer(state.taken, (lambda: stamp(now())) if callable(now) else stamp(now))
    actions: list[Action] = []
    handled: set[str] = set()
    for r in resources:
        key = (r.kind, r.filename)
        if key not in chosen and key not in off:
            handled.update((r.dest, r.disabled_dest))
            actions.append(_left_out(state, r, key in kept_off))
            continue
        # Left out or not, an item off in the entry this replaces is linked parked: it is the
        # user's switch, which only a parked link keeps once the entry goes.
        mine = _resource_actions(state, r, names, key in off)
        # The form not acted on is pruned when it is a dead link of ours: once the state record
        # forgets an older root, a link into it would read as foreign and stay for good.
        handled.update(a.path for a in mine)
        actions.extend(mine)
    actions.extend(_prunes(state, handled))
    actions.extend(Action("prune", p, target=e.target, detail=NO_ITEM) for p, e in strays)
    return Plan("install", tuple(actions))


def _left_out(state: AgentState, r: Resource, off: bool) -> Action:
    """An item the selection leaves out: its link of ours goes; off already, it stays off."""
    enabled = state.entries.get(r.dest)
    if off:
        path = r.disabled_dest if r.disabled_dest in state.entries else r.dest
        return Action("skip", path, detail="not selected; off already, as you left it")
    if enabled is not None and _owned(enabled):
        return Action("unlink", r.dest, target=enabled.target, detail=NOT_SELECTED)
    return Action("skip", r.dest, detail="not selected")


NOT_SELECTED = "not selected: --only/--skip leave it out, so it is not installed"


def _resource_actions(
    state: AgentState, r: Resource, names: Namer, parked: bool = False
) -> list[Action]:
    source, dest, off = r.source, r.dest, r.disabled_dest
    enabled = state.entries.get(dest)
    disabled = state.entries.get(off)
    ours = _already_ours(r, enabled, disabled, source)
    if ours is not None:
        return [ours]
    if parked:
        return _park(r, disabled, names)
    if enabled is None:
        # A file of the user's switched off by hand at the item's off name is theirs and stays
        # (it is no link of ours to keep off): the plan says that pi loads the set's now.
        beside = f"the set's, on; your {off} stays, off" if disabled else None
        return [Action("link", dest, target=source, detail=beside)]
    backup = names.pick(r.home, r.filename, enabled.to_dir)
    what = _describe(enabled)
    return [
        Action("backup", dest, backup=backup, detail=what),
        Action("link", dest, target=source),
    ]


def _park(r: Resource, disabled: Entry | None, names: Namer) -> list[Action]:
    """A new link of an item switched off in register mode, in its disabled form; what is at
    that name (not ours) is backed up first, since linked at its enabled name it would load."""
    link = Action("link", r.disabled_dest, target=r.source, detail="disabled, as you left it")
    if disabled is None:
        return [link]
    folder, _, filename = r.disabled_dest.rpartition("/")
    backup = names.pick(folder, filename, disabled.to_dir)
    return [Action("backup", r.disabled_dest, backup=backup, detail=_describe(disabled)), link]


def _already_ours(
    r: Resource, enabled: Entry | None, disabled: Entry | None, source: str
) -> Action | None:
    """Keep or relink a link of ours in either form; None when neither form is ours."""
    real = r.real or source
    if _points_at(enabled, real):
        return Action("keep", r.dest, target=source)
    if _points_at(disabled, real) and not (
        enabled is not None and _owned(enabled) and enabled.exists
    ):
        # A dead link of ours at the enabled name is pruned; install never re-enables.
        return Action("keep", r.disabled_dest, target=source, detail="disabled")
    if enabled is not None and _owned(enabled):
        return _relink(r.dest, enabled, source)
    if disabled is not None and _owned(disabled) and enabled is None:
        return _relink(r.disabled_dest, disabled, source)
    return None


def _relink(path: str, entry: Entry, source: str) -> Action:
    was = "an older location of the set" if entry.owner == "moved" else entry.target
    return Action("relink", path, target=source, detail=f"was {was}")


def _prunes(state: AgentState, handled: set[str]) -> list[Action]:
    return [
        Action("prune", path, target=e.target, detail=_gone(path))
        for path, e in sorted(state.entries.items())
        if path not in handled and _owned(e) and not e.exists
    ]


def _gone(path: str) -> str:
    """A parked link says it was off: an item the set renamed comes in under its new name
    switched on (install never guesses that two names are one item), so the person knows."""
    parked = path.endswith(".off") or "/.off/" in path
    return "its target is gone; it was switched off" if parked else "its target is gone"


def plan_uninstall(state: AgentState) -> Plan:
    """Remove our links, enabled and disabled; nothing else, and backups stay."""
    actions = [
        Action("unlink", path, target=e.target)
        for path, e in sorted(state.entries.items())
        if _owned(e)
    ]
    return Plan("uninstall", tuple(actions))


def _owned(entry: Entry | None) -> bool:
    return entry is not None and entry.kind == "link" and entry.owner in ("ours", "moved")


def _points_at(entry: Entry | None, real: str) -> bool:
    return entry is not None and entry.owner == "ours" and entry.real == real and entry.exists


def _describe(entry: Entry) -> str:
    if entry.kind == "link":
        return f"a link to {entry.target}"
    return "a folder" if entry.kind == "dir" else "a file"


def linked_now(actions: Iterable[Action], items: Iterable[Resource]) -> tuple[Resource, ...]:
    """The items a plan links or relinks (either form): only a new link needs its source read
    again (its imports, its SKILL.md), so a no-op reads none."""
    paths = {a.path for a in actions if a.action in ("link", "relink")}
    if not paths:
        return ()  # a no-op: not even the items' places are worked out
    return tuple(r for r in items if r.dest in paths or r.disabled_dest in paths)
