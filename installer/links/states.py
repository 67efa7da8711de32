"""`ext list`: every item of the set and its state in the agent dir."""

from __future__ import annotations

import os
from collections.abc import Container, Iterable, Mapping
from pathlib import Path

from installer.ground.context import Context
from installer.ground.manifest import Manifest
from installer.ground.records import NamedTuple
from installer.ground.state import load_state
from installer.hosts.placing import set_items
from installer.links.scan import AgentState, Entry, scan, seen
from installer.sets.resources import FOLDER, PI_KINDS, Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    from installer.hosts.profile import Host
    from installer.sets.pirules import Layout
    from installer.sets.resources import Kind
    from installer.settings.switches import PiSwitch

    State = Literal["enabled", "disabled", "not-installed", "conflict", "stale", "foreign"]


class Item(NamedTuple):
    resource: Resource
    state: State
    path: str
    note: str | None = None
    pi: PiSwitch | None = None  # what pi's own settings say of it (`pi config`'s switches)
    # The name the host gives it, where that is not ext's (a skill's frontmatter `name`).
    host_name: str | None = None
    # Why the host would not load it though its link is in place (installer.hosts.skill_files).
    refused: str | None = None
    host_kind: str | None = None  # the kind the host takes it as, where not ext's ("command")
    # Not installed, in a set installed here: what an install's --only/--skip left out (or
    # new in the set), which an enable puts in, and a disable puts in switched off.
    left_out: bool = False
    held_by: str | None = None  # the folder of another set ext installed here whose link it is

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.resource.name,
            "kind": self.resource.kind,
            "layout": self.resource.layout,
            "state": self.state,
            "path": self.path,
            "entries": self.resource.entries(),
        }
        if self.host_name:
            out["host_name"] = self.host_name
        if self.refused:
            out["host_refuses"] = self.refused
        if self.host_kind:
            out["host_kind"] = self.host_kind
        if self.note:
            out["note"] = self.note
        if self.pi is not None:
            out["pi"] = self.pi.to_json()
        if self.left_out:
            out["left_out"] = True
        return out


def items(ctx: Context) -> tuple[str, list[Item]]:
    """The install mode and the state of each resource of the set."""
    state = load_state(ctx.agent_dir)
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    mode = record.mode if record else ctx.manifest.mode
    old = state.old_roots(ctx.set_root, ctx.manifest.name)
    resources = set_items(ctx)
    others = [Path(o.root) for o in state.others(ctx.set_root, ctx.manifest.name)]
    agent = scan(ctx.agent_dir, ctx.set_root, old, seen(resources), others, folders=ctx.folders)
    kinds = kinds_of(ctx)
    if mode == "register":
        from installer.settings.selection import recorded_skips

        found = left_out(registered_items(ctx, resources), recorded_skips(state, ctx))
        return mode, [*pi_refusals(ctx, found), *gone(agent, resources, kinds)]
    if not ctx.on.is_pi:
        here = classify_here(ctx, agent, resources)
        named = host_names(ctx, read_shared(ctx, here))
        return mode, [*hidden_commands(ctx.on, named), *gone(agent, resources, kinds)]
    from installer.settings.switches import with_pi

    found = with_pi(ctx, [classify(agent, r) for r in resources])
    if record is not None:  # installed here: what is not linked is an enable away
        found = [_left_out_linked(i, agent) for i in found]
    return mode, [*pi_refusals(ctx, read_shared(ctx, found)), *gone(agent, resources, kinds)]


def _left_out_linked(item: Item, agent: AgentState) -> Item:
    """Link mode: an item not linked, whose places are free (an install's --only/--skip left
    it out, or it is new in the set), is left out: an enable links it."""
    if item.state != "not-installed" or not places_free(item.resource, agent.entries):
        return item
    return item._replace(left_out=True, note=item.note or _enable_puts_in(LEFT_OUT_OR_NEW))


def places_free(r: Resource, taken: Container[str]) -> bool:
    """Whether nothing stands where r goes, on or parked (paths of the agent dir)."""
    return r.dest not in taken and r.disabled_dest not in taken


def _enable_puts_in(why: str) -> str:
    """Why an item is not installed, and that an enable puts it in (a list row is data: no
    command in it is made runnable with this run's --set and --agent-dir)."""
    return f"{why}; an enable puts it in"


def read_shared(ctx: Context, found: list[Item]) -> list[Item]:
    """A skill not installed here, or parked here, that the host loads from a shared folder
    where ext linked it (~/.agents/skills, for Codex CLI): on, from there, and switched there
    (helper-48: parked here and live there, it was listed off, and an enable linked a second
    copy here)."""
    from installer.hosts.shared import shared_items

    places = shared_items(ctx, found, ("not-installed", "disabled"))
    if not places:
        return found
    return [
        Item(i.resource, "enabled", places[i.resource].path, places[i.resource].note)
        if i.resource in places
        else i
        for i in found
    ]


def pi_refusals(ctx: Context, found: list[Item]) -> list[Item]:
    """Each skill on that pi skips (its file's frontmatter is not YAML pi reads, or has no
    description that is text), with why, as a note (installer.sets.piskill)."""
    from installer.sets.piskill import skipped

    out = []
    line = ctx.pi_line()
    for i in found:
        refused = skipped(i.resource, line) if i.state == "enabled" else None
        note = "; ".join(n for n in (refused, i.note) if n) or None
        out.append(i._replace(refused=refused, note=note) if refused else i)
    return out


def host_names(ctx: Context, found: list[Item]) -> list[Item]:
    """Each skill as the host reads it: the name it gives it, where that is not ext's, and
    why it would not load it (a SKILL.md without what the host needs), as a note; Claude
    Code takes such a skill as a command (`host_kind`)."""
    from installer.hosts.skill_files import host_name, refusal

    out = []
    for i in found:
        r = i.resource
        if r.kind != "skill":
            out.append(i)
            continue
        skill_md = os.path.join(r.source, "SKILL.md")
        named = host_name(ctx.on, skill_md, r.name)
        refused = refusal(ctx.on, skill_md)
        note = "; ".join(n for n in (refused, i.note) if n) or None
        as_command = bool(refused) and ctx.on.lacking_as_command
        out.append(
            i._replace(
                host_name=named if named != r.name else None,
                refused=None if as_command else refused,
                host_kind="command" if as_command else None,
                note=note,
            )
        )
    return out


def hidden_commands(host: Host, found: list[Item]) -> list[Item]:
    """Each command the host does not offer because a skill it loads takes its slash name
    (helper-77: Claude Code showed `/review` once, the skill's), with why."""
    if not host.skill_hides_command:
        return found
    skills = {  # a skill taken as a command only is no skill there (not pinned to hide one)
        i.host_name or i.resource.name: i.resource
        for i in found
        if i.resource.kind == "skill" and i.state == "enabled" and not i.refused and not i.host_kind
    }
    out = []
    for i in found:
        skill = skills.get(i.resource.name) if i.resource.kind == "prompt" else None
        if skill is None or i.state != "enabled":
            out.append(i)
            continue
        why = hidden_by(host, i.resource.name, skill.label)
        out.append(i._replace(refused=why, note="; ".join(n for n in (why, i.note) if n)))
    return out


def hidden_by(host: Host, name: str, skill: str) -> str:
    return f"{host.title} does not offer it: the {skill} takes /{name} (rename one of them)"


def classify_here(ctx: Context, agent: AgentState, resources: Iterable[Resource]) -> list[Item]:
    """Another host's items: linked ones by their links, written ones by ext's record."""
    from installer.hosts.written import classify_written, recorded, rewrite_command

    hashes = recorded(ctx.agent_dir, ctx.set_root, ctx.manifest.name)
    run = rewrite_command(ctx)
    return [
        classify_written(agent, r, hashes, run) if r.written else classify(agent, r)
        for r in resources
    ]


def kinds_of(ctx: Context) -> dict[str, Kind]:
    """The kind each of the host's folders holds, as the engine names them (`skills`)."""
    from installer.ground.context import home_of
    from installer.hosts.profile import folder_of

    home = home_of(ctx.env)
    return {folder_of(p, home): p.kind for p in ctx.on.places}


def left_out(found: list[Item], skips: tuple[str, ...]) -> list[Item]:
    """Register mode: an item off only by ext's own filters of an install's --only/--skip is
    left out, not installed, as link mode says of it (its filter is no one's switch)."""
    if not skips:
        return found
    mine = set(skips)
    return [
        i._replace(state="not-installed", pi=None, note=_enable_puts_in(LEFT_OUT), left_out=True)
        if i.state == "disabled" and i.resource.filters and set(i.resource.filters) <= mine
        else i
        for i in found
    ]


LEFT_OUT = "an install's --only/--skip left it out"
# Link mode keeps no record of a --skip: an item not linked may be new in the set too.
# How an item whose place holds another set's link is said (switch.py tells it by this).
OTHER_SETS = "a link of another set ext installed here"
LEFT_OUT_OR_NEW = f"{LEFT_OUT}, or it is new in the set"


def registered_items(ctx: Context, resources: tuple[Resource, ...]) -> list[Item]:
    """In register mode an item is loaded through the set's packages entry, unless filtered out;
    an entry that names where the set was before its folder moved makes each item stale, as a
    link into the old folder does in link mode."""
    from installer.settings.switches import registered_states

    blank = [Item(r, "not-installed", "settings.json") for r in resources]
    found = registered_states(ctx, blank)
    if any(i.state != "not-installed" for i in found):
        return found
    old = registered_before_a_move(ctx, blank)
    if old is None:
        return found
    why = f"registered from an older location of the set ({old}); `ext install` registers it again"
    return [i._replace(state="stale", note=why) for i in blank]


def registered_before_a_move(ctx: Context, blank: list[Item]) -> Path | None:
    """The folder the set was in before it moved, when a packages entry still names it."""
    from installer.ground.state import load_state
    from installer.settings.switches import registered_states

    for old in load_state(ctx.agent_dir).old_roots(ctx.set_root, ctx.manifest.name):
        if any(i.state != "not-installed" for i in registered_states(ctx, blank, old)):
            return old
    return None


def classify(agent: AgentState, r: Resource) -> Item:
    """One resource's state, from its enabled and disabled destinations."""
    real = r.real or r.source
    forms: tuple[tuple[str, State], ...] = ((r.dest, "enabled"), (r.disabled_dest, "disabled"))
    for path, live in forms:
        e = agent.entries.get(path)
        if e is None or e.kind != "link" or e.owner in ("foreign", "other"):
            continue
        if e.owner == "ours" and e.exists and e.real == real:
            return Item(r, live, path)
        return Item(r, "stale", path, _stale_note(e))
    return _not_ours(r, agent.entries.get(r.dest), agent.entries.get(r.disabled_dest))


def _not_ours(r: Resource, e: Entry | None, parked: Entry | None) -> Item:
    """An item with no link of ours in either form: not installed, or what holds its place."""
    if e is None and parked is not None and parked.kind == "link" and parked.owner == "other":
        # Another set's, switched off: it holds the place all the same (helper-35: said
        # not installed, an enable exited 0, and doctor's fix, `ext install`, refused).
        note = f"{OTHER_SETS} ({parked.root}), switched off there; `ext install` refuses"
        return Item(r, "foreign", r.disabled_dest, note, held_by=parked.root)
    if e is None:
        why = f"link mode cannot install it: {r.unlinkable}" if r.unlinkable else None
        return Item(r, "not-installed", r.dest, why)
    if e.kind == "link" and e.owner == "other":
        note = f"{OTHER_SETS} ({e.root}); `ext install` refuses"
        return Item(r, "foreign", r.dest, note, held_by=e.root)
    if e.kind == "link":
        return Item(r, "foreign", r.dest, f"a link to {e.target}; `ext install` backs it up")
    what = "a folder" if e.kind == "dir" else "a file"
    return Item(r, "conflict", r.dest, f"{what} is in the way; `ext install` backs it up")


def gone(
    agent: AgentState, resources: Iterable[Resource], kinds: Mapping[str, Kind] = PI_KINDS
) -> list[Item]:
    """Links of ours whose target left the set (no item accounts for them): stale, and
    `ext install` prunes them. `kinds`: the host's folders and what each holds."""
    from installer.links.strays import places, strays

    known = places(resources)
    dead = [
        (path, e, _GONE)
        for path, e in agent.entries.items()
        if e.kind == "link" and e.owner in ("ours", "moved") and not e.exists and path not in known
    ]
    live = [(path, e, _NO_ITEM) for path, e in strays(agent, known, kinds)]
    return [
        Item(resource_at(path, e.target or "", kinds), "stale", path, why)
        for path, e, why in sorted(dead + live)
    ]


_GONE = "its target is gone from the set; `ext install` prunes it"
_NO_ITEM = "no item of the set goes here now, yet its link loads; `ext install` prunes it"


def resource_at(path: str, source: str, kinds: Mapping[str, Kind] = PI_KINDS) -> Resource:
    """The item a path of the agent dir stands for (`extensions/.off/foo` -> extension foo)."""
    folder = max((f for f in kinds if path.startswith(f + "/")), key=len, default="")
    if not folder:
        folder = path.partition("/")[0]
    rest = path[len(folder) + 1 :]
    kind: Kind = kinds.get(folder, "extension")
    parked = rest.startswith(".off/")  # folders are parked in .off/, files get `.off`
    filename = rest.removeprefix(".off/").removesuffix(".off")
    stem, dot, _suffix = filename.rpartition(".")
    # Named as discover names an item: a file by its stem (`notify.ts` -> notify).
    layout: Layout = "file" if dot and stem and not parked else "dir"
    name = stem if layout == "file" else filename
    home = "" if kinds.get(FOLDER[kind]) == kind else folder
    return Resource(kind, name, filename, layout, source, folder=home)


def _stale_note(e: Entry) -> str:
    if e.owner == "moved":
        return f"points at an older location of the set ({e.root}); `ext install` relinks it"
    if not e.exists:
        return "its target is gone; `ext install` fixes it"
    return f"points at {e.target}; `ext install` relinks it"


def with_guard(item: dict[str, Any], manifest: Manifest) -> dict[str, Any]:
    """An extension's JSON with the guard that can refuse disabling it (none: unchanged)."""
    if item["kind"] != "extension" or not (manifest.guards or manifest.requires):
        return item  # the common case, without importing the guards
    from installer.agent.guards import guard_json

    guard = guard_json(manifest, item["name"])
    return {**item, "guard": guard} if guard else item
