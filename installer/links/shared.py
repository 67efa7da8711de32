"""One agent dir, many sets: a link of another set ext manages is not a stranger's file.

Backing it up (as a foreign link) would break the other set, and the next install of that
set would back this one's up in turn: `.bak`, `-1`, `-2` pile up. The run refuses instead,
naming both sets and the ways out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from installer.ground.errors import Refused
from installer.ground.state import SetRecord
from installer.links.scan import AgentState
from installer.sets.resources import Resource


def clashes(state: AgentState, selected: Iterable[Resource]) -> list[tuple[Resource, str]]:
    """Selected resources whose place holds another set's link: (resource, that set's root)."""
    found = []
    for r in selected:
        for path in (r.dest, r.disabled_dest):
            entry = state.entries.get(path)
            if entry is not None and entry.owner == "other" and entry.root is not None:
                found.append((r, entry.root))
                break
    return found


def refuse_clashes(
    state: AgentState,
    selected: Iterable[Resource],
    this_set: str,
    others: Sequence[SetRecord],
) -> None:
    """Refuse (exit 3) when a selected item's place holds a link of another set ext manages."""
    found = clashes(state, selected)
    if not found:
        return
    names = {str(Path(o.root)): o.name for o in others}
    root = found[0][1]
    other = names.get(root, root)
    items = ", ".join(sorted({x.label for x, _ in found}))
    raise Refused(
        f"{items}: the agent dir already has {'this item' if len(found) == 1 else 'these items'} "
        f"from another set ext installed here, {other!r} ({root}), which this set "
        f"{this_set!r} would replace; nothing was written",
        f"skip {'it' if len(found) == 1 else 'them'} (`ext install --skip "
        f"{','.join(sorted({x.label for x, _ in found}))}`), or uninstall the other set first "
        f"(`ext --set {root} uninstall`)",
    )
