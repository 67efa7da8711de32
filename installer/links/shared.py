"""One agent dir, many sets: a link of another set ext manages is not a stranger's file.

Backing it up (as a foreign link) would break the other set, and the next install of that
set would back this one's up in turn: `.bak`, `-1`, `-2` pile up. The run refuses instead,
naming both sets and the ways out.

The same rule holds for a skill's name, in either mode: pi loads one skill per name (the
first it meets) and reports a collision, so a set whose skill another set installed here
already has, linked or registered, is refused as a link in the way is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from installer.ground.context import Context
from installer.ground.errors import Refused
from installer.ground.few import few
from installer.ground.state import SetRecord
from installer.links.scan import AgentState
from installer.sets.resources import Resource

Selection = tuple[Sequence[str], Sequence[str]]  # an install's --only and --skip


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


def same_names(
    agent: AgentState, selected: Iterable[Resource], others: Sequence[SetRecord]
) -> list[tuple[Resource, str]]:
    """Selected skills whose name pi gives a skill another set installed here: (skill, root)."""
    if not others:
        return []  # the one set here: no name to share (and no SKILL.md read)
    skills = [r for r in selected if r.kind == "skill" and r.entries()]
    if not skills:
        return []
    from installer.sets.shared_skills import skill_name

    mine = [(r, skill_name(r.entries()[0])) for r in skills]
    taken: dict[str, str] = {}
    for other in others:
        for r in _installed_skills(agent, other):
            taken.setdefault(skill_name(r.entries()[0]), other.root)
    return [(r, taken[name]) for r, name in mine if name in taken]


def _installed_skills(agent: AgentState, other: SetRecord) -> list[Resource]:
    """The other set's skills in this agent dir, on or off: linked, else registered and not
    left out by its `--skip`; none when that set cannot be read any more."""
    from installer.ground.errors import ExtError
    from installer.sets.resources import discover

    try:
        skills = [r for r in discover(Path(other.root)) if r.kind == "skill" and r.entries()]
    except (ExtError, OSError):
        return []
    if other.mode == "register":
        from installer.settings.plan import SKIPPED

        skipped = set(other.extra.get(SKIPPED) or ())
        return [r for r in skills if not set(r.filters) <= skipped]
    # By where the links lead, not by their names: another host places a skill elsewhere.
    linked = {e.real for e in agent.entries.values() if e.owner == "other" and e.root == other.root}
    return [r for r in skills if (r.real or r.source) in linked]


def refuse_clashes(
    state: AgentState,
    selected: Iterable[Resource],
    this_set: str,
    others: Sequence[SetRecord],
    picked: Selection = ((), ()),
) -> None:
    """Refuse (exit 3) when a selected item's place holds a link of another set ext manages."""
    selected = list(selected)
    found = clashes(state, selected)
    if not found:
        return
    names = {str(Path(o.root)): o.name for o in others}
    root = found[0][1]
    other = names.get(root, root)
    items = few(sorted({x.label for x, _ in found}), 5, _MANY)
    # Skipping every item it installs is no install (helper-72: a copy of the bundled set was
    # told to --skip all eight): the uninstall is the way, or another agent dir.
    every = len({x for x, _ in found}) == len(selected)
    skip = skip_them([x for x, _ in found], picked) if len(found) <= _MANY and not every else ""
    whose = (  # the name alone would not tell the two apart (helper-72)
        f"another copy of this set ext installed here ({root}), which this one"
        if other == this_set
        else f"another set ext installed here, {other!r} ({root}), which this set {this_set!r}"
    )
    from installer.ground.shellword import shell_word

    raise Refused(
        f"{items}: the agent dir already has {'this item' if len(found) == 1 else 'these items'} "
        f"from {whose} would replace; nothing was written",
        f"{skip}uninstall the other set first (`ext --set {shell_word(Path(root))} uninstall`)"
        + (", or install this one into another agent dir (--agent-dir)" if every else ""),
    )


def refuse_other_sets(
    agent: AgentState,
    selected: Sequence[Resource],
    mode: str,
    this_set: str,
    others: Sequence[SetRecord],
    picked: Selection = ((), ()),
) -> None:
    """Refuse another set's link in the way (link mode), or its skill of one name (either
    mode: pi would load one of the two); `picked`: the run's --only and --skip, which the
    fix keeps."""
    if mode == "link":
        refuse_clashes(agent, selected, this_set, others, picked)
    refuse_same_names(agent, selected, this_set, others, picked=picked)


def refuse_same_names(
    agent: AgentState,
    selected: Iterable[Resource],
    this_set: str,
    others: Sequence[SetRecord],
    keep_off: bool = False,
    picked: Selection = ((), ()),
) -> None:
    """Refuse (exit 3), in either mode, a skill whose name another set installed here has;
    `keep_off`: the way out is to leave it off (enable), not to skip it (install)."""
    found = same_names(agent, selected, others)
    if not found:
        return
    names = {str(Path(o.root)): o.name for o in others}
    root = found[0][1]
    labels = few(sorted({r.label for r, _ in found}), 5, _MANY)
    one = len(found) == 1
    them = "it" if one else "them"
    first = f"leave {them} off, " if keep_off else skip_them([r for r, _ in found], picked)
    first = first if len(found) <= _MANY else ""  # two copies of one set: the uninstall is it
    from installer.ground.shellword import shell_word

    raise Refused(
        f"{labels}: another set ext installed here, {names.get(root, root)!r} "
        f"({root}), has a skill of {'this name' if one else 'these names'}; pi would load "
        f"only one of the two and report a collision, so this set {this_set!r} does not add "
        f"{them}; nothing was written",
        f"{first}rename one of the two, or uninstall the other set first "
        f"(`ext --set {shell_word(Path(root))} uninstall`)",
    )


_MANY = 8  # more items than this in the way: two copies of one set, said in short (few)


def skip_them(found: list[Resource], picked: Selection) -> str:
    """`skip it (`ext install …`), `: the install that leaves `found` out and keeps the rest of
    this run's selection (its --only less those items, else its --skip and those items); ""
    when --only named those items alone, and no install is left to suggest."""
    from installer.ground.errors import UsageError
    from installer.sets.resources import resolve_name

    only, skip = picked

    def names_one(name: str) -> bool:
        try:
            return bool(resolve_name(tuple(found), name))
        except UsageError:
            return False

    them = "it" if len(found) == 1 else "them"
    from installer.ground.shellword import shell_word, skip_flag

    rest = [n for n in only if not names_one(n)]
    if only and not rest:
        return ""
    labels = sorted({r.label for r in found})
    words = (
        f"--only {shell_word(','.join(rest))}"
        if rest
        else skip_flag(dict.fromkeys([*skip, *labels]))
    )
    return f"skip {them} (`ext install {words}`), or "


def refuse_same_names_here(ctx: Context, selected: Sequence[Resource]) -> None:
    """refuse_same_names for a command that has not scanned the agent dir (enable, toggle)."""
    from installer.ground.state import load_state
    from installer.links.scan import scan

    skills = [r for r in selected if r.kind == "skill"]
    state = load_state(ctx.agent_dir) if skills else None
    others = state.others(ctx.set_root, ctx.manifest.name) if state is not None else []
    if state is None or not others:
        return
    old = state.old_roots(ctx.set_root, ctx.manifest.name)
    others_roots = [Path(o.root) for o in others]
    agent = scan(ctx.agent_dir, ctx.set_root, old, other_sets=others_roots, folders=ctx.folders)
    refuse_same_names(agent, skills, ctx.manifest.name, others, keep_off=True)
