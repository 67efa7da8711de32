"""`ext --host H install` for a host other than pi (the verb, installer/commands/install.py, hands
over to this): link the set's skills and commands into the
host's own folders; the kinds the host has no place for are in the plan as skipped, with why.

pi's install (installer/commands/install.py) also registers packages, seeds settings and
installs ext's agent files; the other hosts have none of those, so their install is the link
engine alone: the same rules (backups, pruning, `.off` kept, the selection is what is
installed), the same plan, lock, journal and undo.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from installer.engine.plan import Action, Plan
from installer.engine.run import Confirm, Prepared, run_plan, set_record
from installer.ground.backups import Namer, stamp
from installer.ground.context import Context, home_of
from installer.ground.errors import UsageError
from installer.ground.shellword import shell_word
from installer.ground.state import State, load_state
from installer.hosts.placing import Placed, placed
from installer.hosts.shared import (
    doubled_elsewhere,
    found_twice,
    kept_for_other_dirs,
    lost_elsewhere,
    parked_but_read,
    read_elsewhere,
    shared_reads,
)
from installer.hosts.written import KEY, WrittenPlan, plan_written, recorded, rewrite_command
from installer.links.plan import linked_now, plan_install
from installer.links.scan import AgentState, scan, seen
from installer.links.shared import Selection, refuse_other_sets
from installer.links.states import kinds_of
from installer.links.strays import places, strays
from installer.sets.linksout import links_out
from installer.sets.modes import refuse_unlinkable
from installer.sets.resources import (
    broken_links,
    links_round,
    select,
    selection_warnings,
    selection_words,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from installer.engine.result import PlanResult
    from installer.hosts.profile import Host
    from installer.sets.resources import Resource


class Asked(Protocol):
    """What of `ext install`'s options a host's install reads."""

    @property
    def only(self) -> tuple[str, ...]: ...
    @property
    def skip(self) -> tuple[str, ...]: ...
    @property
    def dry_run(self) -> bool: ...
    @property
    def mode(self) -> str | None: ...
    @property
    def create(self) -> bool: ...
    @property
    def ahead(self) -> tuple[str, ...]: ...


def install_into_host(ctx: Context, options: Asked, confirm: Confirm) -> PlanResult:
    """Plan the links into the host's folders, show them, and apply once confirmed."""
    host = ctx.on
    if options.mode not in (None, "link"):
        raise UsageError(
            f"--mode {options.mode} is pi's: {host.title} has no packages to register a set in",
            "leave out --mode: ext links the set's items into its folders",
        )
    if host.var_names_home:  # a dir no variable can point the host at: it would never read it
        from installer.hosts.pointer import pointer

        pointer(host, ctx.agent_dir)
    where = placed(ctx)
    everything = (*where.items, *where.written, *(r for r, _ in where.absent))
    chosen = select(everything, list(options.only), list(options.skip))
    picked = frozenset((r.kind, r.filename) for r in chosen)
    linked = tuple(r for r in where.items if (r.kind, r.filename) in picked)
    refuse_unlinkable(linked, registers=False)  # a host of links alone: --skip is the way

    def prepare() -> Prepared:
        state = load_state(ctx.agent_dir)
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        others = state.others(ctx.set_root, ctx.manifest.name)
        agent = scan(
            ctx.agent_dir,
            ctx.set_root,
            old,
            seen(where.items),
            [Path(o.root) for o in others],
            folders=ctx.folders,
        )
        selection = (options.only, options.skip)
        refuse_other_sets(agent, linked, "link", ctx.manifest.name, others, selection)
        shared = shared_reads(ctx, host, linked, _linked_ahead(ctx, options))
        here = tuple(r for r in linked if r not in shared)
        left_out = [r for r in where.items if r not in here]
        off = parked(agent, left_out)
        now = cache(ctx.env.now)  # read once, and only if something is backed up
        gone = strays(agent, places(where.items), kinds_of(ctx))
        links = plan_install(agent, where.items, here, now, (), off, gone)
        links = links._replace(actions=kept_for_other_dirs(ctx, links.actions))
        hashes = recorded(ctx.agent_dir, ctx.set_root, ctx.manifest.name)
        names = Namer(agent.taken, lambda: stamp(now()))
        files = plan_written(
            agent, where.written, picked, hashes, names, host.title, rewrite_command(ctx)
        )
        written[:] = [files]
        actions = (
            *read_elsewhere(links.actions, shared),
            *files.actions,
            *_not_here(where, picked),
        )
        warnings = (
            *ctx.manifest.warnings,
            *selection_warnings(options.only, options.skip),
            *(
                b.left_out(host.title)
                for b in broken_links(ctx.set_root)
                if host.place(b.kind) is not None
            ),
            *(out.said() for out in links_out(ctx.set_root, linked)),
            *_round(linked_now(links.actions, here)),
            *files.warnings,
            *_absent_warnings(host, where, picked),
            *_refused_warnings(host, linked_now(links.actions, here), linked, agent),
            *found_twice(ctx, host, linked, _linked_ahead(ctx, options)),
            *_twins(ctx, host, linked_now(links.actions, here), selection),
            *parked_but_read(ctx, links.actions),  # a backup another host still loads
            *lost_elsewhere(ctx, links.actions),  # a --skip unlinks what another host reads
            *doubled_elsewhere(ctx, links.actions),  # a link another host now reads twice
            *(
                f"{r.label}: not linked here: {host.title} reads it from {folder}, where ext "
                "linked it"
                for r, folder in shared.items()
            ),
        )
        if any(a.action in ("prune", "unlink") for a in links.actions):
            from installer.links.kept import kept_backups

            kept[:] = kept_backups(ctx.agent_dir, links.actions, host.title)
        asked = selection_words(options.only, options.skip)
        return Prepared(Plan("install", actions, warnings, "link", asked=asked))

    written: list[WrittenPlan] = []
    kept: list[str] = []  # a user's entry a pruned link had replaced: its backup, named

    def new_state(state: State) -> State:
        extra: dict[str, object] = {"host": host.name}
        hashes = written[-1].hashes() if written else {}
        if hashes:
            extra[KEY] = hashes
        return state.with_set(set_record(ctx, "link", extra))

    result = run_plan(ctx, prepare, confirm, options.dry_run, new_state, mends=True)
    return result._replace(notes=(*result.notes, *kept)) if kept else result


def parked(agent: AgentState, resources: list[Resource]) -> list[Resource]:
    """The items whose link of ours is parked (off): a left-out item stays off, as it was."""
    return [
        r
        for r in resources
        if (e := agent.entries.get(r.disabled_dest)) is not None and e.owner == "ours"
    ]


def _twins(
    ctx: Context, host: Host, linking: tuple[Resource, ...], selection: Selection
) -> list[str]:
    """A warning per skill this install links into the host's own folder whose name the host
    already finds in a shared folder it reads (another set's, or the user's own): it loads one
    of the two and reports a collision. A warning, as pi's shared twins are: the twin may be
    one the user keeps on purpose."""
    from installer.hosts.shared import twins_read
    from installer.links.shared import skip_them

    return [
        f"{r.label}: {host.title} also reads {folder}, where a skill of this name is ({real}); "
        f"it loads one of the two and reports a collision: {skip_them([r], selection)}"
        "rename one of the two"
        for r, folder, real in twins_read(ctx, host, linking)
    ]


def _linked_ahead(ctx: Context, options: Asked) -> frozenset[Path]:
    """The skill folders the hosts installed before this one in the same run link into (a
    host passed over, its dir missing, links nothing)."""
    from installer.hosts.dirs import find_host_dir
    from installer.hosts.profile import folder_of
    from installer.hosts.table import HOSTS

    home = home_of(ctx.env)
    out = set()
    for name in options.ahead:
        other = HOSTS[name]
        if other.is_pi:
            continue  # pi's skills folder is read by no other host
        where, _ = find_host_dir(
            ctx.env, other, None, False, manifest=ctx.manifest, missing_ok=True
        )
        if not (where.is_dir() or options.create):
            continue
        for place in other.places:
            if place.kind == "skill":
                out.add(Path(where, folder_of(place, home)))  # an absolute folder stays itself
    return frozenset(out)


def _not_here(where: Placed, picked: frozenset[tuple[str, str]]) -> list[Action]:
    """A skip per item of a kind the host has no place for, saying why (once per item)."""
    out = [
        Action("skip", f"{r.kind}:{r.name}", detail=f"not for this host: {why}")
        for r, why in where.absent
        if (r.kind, r.filename) in picked
    ]
    return out


def _refused_warnings(
    host: Host, linked: tuple[Resource, ...], selected: tuple[Resource, ...], agent: AgentState
) -> list[str]:
    """One line per skill this run links that the host will skip (or take as a command
    only), and per command of the selection a skill on of it hides (Claude Code: one slash
    name, the skill's), when this run links either (helper-78: a command added to a set
    whose skill was installed before went unsaid; helper-80: a skill switched off hides
    nothing, and a run that links nothing reads no SKILL.md)."""
    if not linked:
        return []
    import os

    from installer.hosts.skill_files import refusal
    from installer.links.states import hidden_by

    said, loaded = [], {}
    on = [r for r in selected if r in linked or r.dest in agent.entries]
    for r in on:
        if r.kind == "skill":
            why = refusal(host, os.path.join(r.source, "SKILL.md"))
            said += [f"{r.label}: {why}"] if why and r in linked else []
            loaded.update({} if why else {r.name: r})
    if host.skill_hides_command:
        said += [
            f"{r.label}: {hidden_by(host, r.name, loaded[r.name].label)}"
            for r in on
            if r.kind == "prompt" and r.name in loaded and (r in linked or loaded[r.name] in linked)
        ]
    return said


def _round(skills: Iterable[Resource]) -> list[str]:
    """A warning per link inside a skill folder that leads back up (helper-28: OpenCode, which
    follows links, hung on one, or found the skill 33 times over)."""
    out = []
    for r in skills:
        if r.kind == "skill" and r.layout == "dir":
            for rel in links_round(r.source):
                out.append(
                    f"{r.label}: {r.dest}/{rel} is a link back to a folder above it: an agent "
                    "that follows links (OpenCode) walks it round and round; remove it or "
                    f"point it elsewhere: rm {shell_word(Path(r.source, rel))}"
                )
    return out


def _absent_warnings(host: Host, where: Placed, picked: frozenset[tuple[str, str]]) -> list[str]:
    """One line per kind the host has no place for: which items, and why."""
    by_why: dict[str, list[str]] = {}
    for r, why in where.absent:
        if (r.kind, r.filename) in picked:
            by_why.setdefault(why, []).append(r.name)
    return [
        f"not installed into {host.title}: {', '.join(names)} ({why})"
        for why, names in by_why.items()
    ]
