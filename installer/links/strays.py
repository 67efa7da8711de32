"""Links of ext's that pi (or another host) loads where no item of the set goes now.

An item a pi package's manifest stops naming keeps its file in the set: its link resolves,
so pi loads it while ext's list, keyed by the set's items, would not show it (session 49).
Such a link is pruned like one whose target is gone, but only a link ext made for an item
(its journals tell) and one the host would load from that place: a link the user made into
the set (`extensions/wip.ts -> set/lib/wip.ts`), or one no host loads (a folder in
`prompts/`, a `README.md`), stays theirs (helper-31).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Mapping

from installer.links.scan import AgentState, Entry
from installer.sets.resources import Resource


def places(resources: Iterable[Resource]) -> set[str]:
    """Each item's two places in the agent dir: in place and parked (what `known` is)."""
    return {p for r in resources for p in (r.dest, r.disabled_dest)}


def strays(
    agent: AgentState, known: Collection[str], kinds: Mapping[str, str]
) -> list[tuple[str, Entry]]:
    """The live links of ours that ext made for an item, at a place no item of the set has
    now (`known`: each item's two forms), that the host loads (`kinds`: its folders and the
    kind each holds). Not a backup, not a parked form, not one to ext's own files."""
    own = os.path.realpath(agent.agent_dir / ".extset") + os.sep  # /ext, the recorder
    found = []
    for path, e in sorted(agent.entries.items()):
        if e.kind != "link" or e.owner != "ours" or not e.exists or path in known:
            continue
        if (e.real or "").startswith(own) or not loads_here(path, e, kinds):
            continue
        found.append((path, e))
    if not found:
        return found
    from installer.engine.made import links_made

    made = links_made(agent.agent_dir, [(p, e.target or "") for p, e in found])
    return [(p, e) for p, e in found if (p, e.target or "") in made]


def loads_here(path: str, e: Entry, kinds: Mapping[str, str]) -> bool:
    """Whether the host loads this entry of one of its folders as an item: a file of the
    kind's suffix, an extension folder with an entry file, a skill folder with SKILL.md;
    not a parked form (`.off/`, `.off`), a hidden name, nor a backup."""
    from installer.ground.backups import parse
    from installer.sets.pirules import SUFFIXES
    from installer.sets.resources import FOLDER

    folder, _, name = path.rpartition("/")
    kind = kinds.get(folder)
    if kind is None or name[0] == "." or parse(name) is not None:
        return False
    real = e.real or ""
    if not e.to_dir:
        return name.endswith(SUFFIXES[FOLDER[kind]])
    if kind == "extension":
        return any(os.path.exists(f"{real}/{n}") for n in ("index.ts", "index.js", "package.json"))
    return kind == "skill" and os.path.isfile(f"{real}/SKILL.md")
