"""`ext install`: link every selected resource of the set, or register the set as a package."""

from __future__ import annotations

from pathlib import Path

from installer.agent.recorder import plan_agent_files, recorded
from installer.consent.set_plan import plan_set_hooks, recorded_hooks
from installer.engine.plan import Action, Plan
from installer.engine.result import PlanResult
from installer.engine.run import Confirm, Prepared, run_plan, set_record
from installer.ground.context import Context
from installer.ground.errors import UsageError
from installer.ground.records import NamedTuple
from installer.ground.state import SetRecord, State, load_state
from installer.host.drift import host_warnings
from installer.links.plan import linked_now, plan_install, plan_uninstall
from installer.links.scan import AgentState, scan, seen
from installer.links.shared import refuse_other_sets
from installer.links.strays import places, strays
from installer.sets.linksout import links_out
from installer.sets.modes import (
    install_mode,
    refuse_lost_imports,
    refuse_unlinkable,
    refuse_unloadable_entries,
)
from installer.sets.resources import (
    PI_KINDS,
    Resource,
    broken_links,
    discover,
    loads_as_one_extension,
    pi_skips,
    select,
    selection_warnings,
    twin_warnings,
)
from installer.settings.plan import (
    SKIPPED,
    WROTE,
    Flip,
    Intent,
    plan_settings,
    seed_keys,
    seeded_before,
    settings_path,
)
from installer.settings.selection import (
    entry_filters,
    moved_off,
    off_as_linked,
    off_in_entry,
    recorded_skips,
    skip_filters,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from installer.engine.made import Made


class Install(NamedTuple):
    """`ext install`'s options, as installer.cli.grammar names them."""

    only: tuple[str, ...] = ()  # names, split at commas
    skip: tuple[str, ...] = ()
    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask
    create: bool = False  # the front's: the context it resolves may make the agent dir
    mode: str | None = None
    reseed: bool = False
    trust_set: bool = False  # run the set's own [host] command before it is installed here
    # The hosts this one run ([hosts] serve) installs into before this one: a skill they link
    # into a folder this host reads counts as linked there, as it will be once they ran.
    ahead: tuple[str, ...] = ()


def install(ctx: Context, options: Install, confirm: Confirm) -> PlanResult:
    """pi's install, or another host's (links alone: installer/hosts/install.py)."""
    from installer.ground.context import refuse_a_sets_folder

    refuse_a_sets_folder(ctx)
    if not ctx.on.is_pi:
        from installer.hosts.install import install_into_host

        return install_into_host(ctx, options, confirm)
    return install_into_pi(ctx, options, confirm)


def _asked(options: Install) -> tuple[str, ...]:
    """How an install was asked, for its journal: its selection, and a reseed."""
    from installer.sets.resources import selection_words

    asked = selection_words(options.only, options.skip)
    return (*asked, "--reseed") if options.reseed else asked


def _nothing_in(ctx: Context, resources: tuple[Resource, ...]) -> tuple[str, ...]:
    """A set with no items: most often a folder named by mistake, where an install would put
    only ext's own /ext in place."""
    if resources:
        return ()
    from installer.sets.resources import none_named

    why = none_named(ctx.set_root, ctx.pi_line())
    if why is not None:
        return (f"the set has no items pi loads: {why}",)
    return (
        f"the set has no items: no extension, skill, prompt or theme in {ctx.set_root} "
        "(check --set, or the folder you run ext in)",
    )


def _refuse_guarded_left_out(
    ctx: Context,
    state: State,
    resources: Sequence[Resource],
    chosen: Sequence[Resource],
    options: Install,
) -> None:
    """An install whose --only/--skip takes out an item on now that a guard holds refuses, as
    `ext disable` would (helper-73: `--skip confirm-destructive` unlinked it under a live
    session started with its flag, which lost it at its next /reload). What is off already
    stays off: nothing to refuse."""
    if len(chosen) == len(resources):
        return  # no --only/--skip left anything out (a plain install: nothing more to read)
    from installer.agent.guards import blockers_here, depending_on, enforce, guarded

    picked = set(chosen)
    left = [r for r in resources if r not in picked and guarded(ctx.manifest, r.label)]
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    if not left or record is None:
        return  # nothing guarded left out, or nothing of the set on here yet
    from installer.links.switch import read_view

    view = read_view(ctx, record.mode, resources)
    now = {r.label for r, it in view.items.items() if it.state == "enabled"}
    off = [r.label for r in left if r.label in now]
    # On after: what is on now and stays in (helper-74: an item that needs the guarded one
    # and goes with it needs nothing), and what this install puts in.
    put_in = {r.label for r in chosen if view.items[r].state == "not-installed"}
    after = (now & {r.label for r in chosen}) | put_in
    found = blockers_here(ctx, off, after, clean=not options.dry_run, switched_on=put_in)
    from installer.ground.few import joined
    from installer.ground.shellword import shell_word

    needed = [b.name for b in found if b.needed_by]
    if needed:  # the same install with it kept in, or with what needs it left out too
        # all that needs them, through others too (helper-90: top3 needs top needs base)
        needing = depending_on(ctx.manifest, needed, after)
        fix = f"keep {joined(needed)} in (`{_selecting(resources, list(chosen), options, needed)}`)"
        rest = [r for r in chosen if r.label not in needing]
        if rest:  # not when that would leave nothing to install
            without = _selecting(resources, rest, options)
            fix += f", or leave {joined(needing)} out too (`{without}`)"
        found = [b._replace(fix=fix) if b.needed_by else b for b in found]
    names = list(dict.fromkeys(b.name for b in found))
    them = "it" if len(names) == 1 else "them"
    forced = " ".join(shell_word(n) for n in names)
    enforce(
        found,
        False,
        "leave out",
        f"switch {them} off anyway first (`ext disable --force {forced}`)",
    )


MODE_CHOSEN = "mode_chosen"  # the state record's word that --mode chose the mode here


def _mode_kept(ctx: Context, mode: str, given: str | None) -> tuple[str, ...]:
    """The mode the set is installed in here, kept over another the manifest now names
    (helper-89: `mode = "register"` written after a link install changed nothing, unsaid),
    unless it was chosen here with --mode (helper-90: said again at every install)."""
    if given is not None or not ctx.manifest.mode_said or ctx.manifest.mode == mode:
        return ()
    record = load_state(ctx.agent_dir).record_of(ctx.set_root, ctx.manifest.name)
    if record is not None and record.extra.get(MODE_CHOSEN):
        return ()
    said = ctx.manifest.mode
    return (
        f"installed here in {mode} mode, which a plain install keeps; extset.toml says "
        f"{said}: `ext install --mode {said}` switches",
    )


def _mode_chosen(
    extra: dict[str, Any], previous: SetRecord | None, given: str | None, manifest_mode: str
) -> dict[str, Any]:
    """`extra` with the mark that --mode chose this mode against the manifest's, which keeps
    _mode_kept quiet: made, or dropped, by an install that switches the mode (or is the
    first), else as it was (helper-91: any --mode marked it for good, and a no-op rewrote the
    record for it)."""
    if given is None or (previous is not None and previous.mode == given):
        return extra
    out = {k: v for k, v in extra.items() if k != MODE_CHOSEN}
    return {**out, MODE_CHOSEN: True} if given != manifest_mode else out


def _selecting(
    resources: Sequence[Resource],
    chosen: list[Resource],
    options: Install,
    add: Sequence[str] = (),
) -> str:
    """This install with `chosen` (and `add`) as its selection, said as it was: by --only when
    it was, else by --skip (none: a plain install), its --mode kept (helper-89: a fix without
    it installed in the other mode)."""
    from installer.ground.shellword import shell_word, skip_flag

    labels = [r.label for r in chosen if r.label not in add] + list(add)
    if options.only:
        words = f" --only {shell_word(','.join(labels))}"
    else:
        rest = [r.label for r in resources if r.label not in labels]
        words = f" {skip_flag(rest)}" if rest else ""
    mode = f" --mode {options.mode}" if options.mode else ""
    return f"ext install{words}{mode}"


def install_into_pi(ctx: Context, options: Install, confirm: Confirm) -> PlanResult:
    """Plan the links (or the package entry) and seeds, show them, and apply once confirmed.

    A seed is written once: the state record keeps the keys seeded here, and a key the
    user removed since stays removed, unless `reseed`.
    """
    mode = install_mode(ctx, options.mode)
    resources = discover(ctx.set_root, ctx.pi_line())
    chosen = select(resources, list(options.only), list(options.skip))
    _refuse_what_the_mode_cannot_do(ctx, mode, chosen)
    first_warnings = (
        *host_warnings(ctx, trusted=options.trust_set),
        *ctx.manifest.warnings,
        *selection_warnings(options.only, options.skip),
        *twin_warnings(resources, options.only, options.skip),
        *_nothing_in(ctx, resources),
        *_mode_kept(ctx, mode, options.mode),
        *(b.left_out("pi") for b in broken_links(ctx.set_root)),
        *(out.said() for out in links_out(ctx.set_root, chosen)),
    )
    skipped: list[str] = []  # register mode: the filters of --only/--skip, ext's own

    def prepare() -> Prepared:
        state = load_state(ctx.agent_dir)
        done = (
            frozenset()
            if options.reseed
            else seeded_before(state.record_of(ctx.set_root, ctx.manifest.name), ctx)
        )
        _refuse_guarded_left_out(ctx, state, resources, chosen, options)
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        others = state.others(ctx.set_root, ctx.manifest.name)
        agent = scan(
            ctx.agent_dir, ctx.set_root, old, seen(resources), [Path(o.root) for o in others]
        )
        # Installing in one mode removes the other mode's form: pi would load the set twice.
        # The user's switches (ext's or pi config's) come along in the new mode's form.
        mode_warnings: tuple[str, ...] = ()
        refuse_other_sets(
            agent, chosen, mode, ctx.manifest.name, others, (options.only, options.skip)
        )
        mine = recorded_skips(state, ctx)  # ext's own filters of a --skip: no one's switch
        if mode == "link":
            made = _from_register(ctx, state)  # None: not registered before
            links, flips, mode_warnings = _link_plan(ctx, agent, resources, chosen, old, mine)
            intent = Intent(
                seed=True,
                seeded=done,
                unregister=True,
                old_roots=tuple(old),
                flips=flips,
                drop_packages=made is not None and made.packages_key,
                drop_file=made is not None and made.settings_file,
            )
        else:
            links = plan_uninstall(agent)
            intent, mode_warnings = _register_intent(ctx, agent, resources, chosen, old, mine)
            intent = intent._replace(seeded=done)
            skipped[:] = intent.skipped
            mode_warnings += _taken_over(ctx, state)
        sp = plan_settings(ctx, intent)
        # ext's own agent files: /ext, and the session recorder where a process guard needs it.
        rec = plan_agent_files(ctx.agent_dir, agent, state, ctx.set_root, ctx.manifest, chosen)
        previous = state.record_of(ctx.set_root, ctx.manifest.name)
        hooks = plan_set_hooks(ctx.set_root, previous.extra if previous else {})
        # A `-path` goes in before a link that it keeps off is put in place.
        by_pi = mode == "link" and ctx.manifest.switch == "pi"
        lines = sp.written_first().actions if by_pi else sp.actions
        lines = _loads(lines, chosen) if mode == "register" else lines
        actions = links.actions + rec.actions + lines + hooks
        # The skills this run puts in place that pi will skip (their SKILL.md says why).
        now_in = (
            linked_now(links.actions, chosen) if mode == "link" else chosen if sp.actions else ()
        )
        warnings = (
            *first_warnings,
            *mode_warnings,
            *(
                _needs_left_off(ctx, agent, resources, chosen, links.actions)
                if mode == "link"  # register: only when what the entry loads changes
                else _needs_unloaded(ctx, agent, resources, chosen, old, mine)
                if sp.actions
                else ()
            ),
            *pi_skips(now_in, ctx.pi_line()),
            *_shared(ctx, mode, agent, chosen, old),
            *rec.warnings,
            *sp.warnings,
        )
        plan = Plan("install", actions, warnings, mode, asked=_asked(options))
        kept[:] = _kept(ctx, links.actions)
        wrote[:] = [a.data["key"] for a in sp.actions if a.action == "seed" and a.data]
        return Prepared(plan, (sp.diff,) if sp.diff else ())

    wrote: list[str] = []  # the seed keys this run writes: the set's, not the user's own
    kept: list[str] = []  # a user's file a pruned link had replaced: its backup, named

    def new_state(state: State) -> State:
        previous = state.record_of(ctx.set_root, ctx.manifest.name)
        extra = recorded(ctx.agent_dir, previous.extra if previous else {}, ctx.manifest)
        extra = recorded_hooks(ctx.set_root, extra, ctx.env.now)
        extra = _filters_record(extra, mode, skipped)
        extra.update(_seeds_record(ctx, options.reseed, previous, wrote))
        extra = _mode_chosen(extra, previous, options.mode, ctx.manifest.mode)
        record = set_record(ctx, mode, extra)
        return state.with_set(record, drop=_forgettable_roots(ctx, state))

    return _telling(run_plan(ctx, prepare, confirm, options.dry_run, new_state, mends=True), kept)


def _needs_left_off(
    ctx: Context,
    agent: AgentState,
    resources: tuple[Resource, ...],
    chosen: tuple[Resource, ...],
    actions: tuple[Action, ...],
) -> tuple[str, ...]:
    """What an item this install links (switched on) requires and leaves off, as `ext enable`
    says it (helper-87: gamma, left out by an earlier --skip, came back beside beta switched
    off, unsaid; doctor warned only afterwards)."""
    if not ctx.manifest.requires and not ctx.manifest.guards:
        return ()
    on = {a.path for a in actions if a.action in ("link", "relink")}
    turned_on = [r.label for r in chosen if r.dest in on]
    if not turned_on:
        return ()
    linked = on | {a.path for a in actions if a.action == "keep"}
    # With `switch = "pi"` a link in place may be off by pi's `-path`: it stays off.
    off = set(off_as_linked(ctx, agent, chosen)) if ctx.manifest.switch == "pi" else set()
    after = {r.label for r in chosen if r.dest in linked and r not in off}
    return _requirements_said(ctx, resources, chosen, turned_on, after)


def _needs_unloaded(
    ctx: Context,
    agent: AgentState,
    resources: tuple[Resource, ...],
    chosen: tuple[Resource, ...],
    old: list[Path],
    mine: tuple[str, ...],
) -> tuple[str, ...]:
    """Register mode's `_needs_left_off`: an item the rewritten entry loads while one it
    requires is left out or switched off (helper-88: said in link mode alone)."""
    if not ctx.manifest.requires and not ctx.manifest.guards:
        return ()
    # Switched off: a link parked before (carried into the entry), or the user's own filter.
    off = set(off_as_linked(ctx, agent, resources))
    off.update(r for r in off_in_entry(ctx, resources, old) if not set(r.filters) <= set(mine))
    after = [r.label for r in chosen if r not in off]
    return _requirements_said(ctx, resources, chosen, after, set(after))


def _requirements_said(
    ctx: Context,
    resources: tuple[Resource, ...],
    chosen: tuple[Resource, ...],
    turned_on: list[str],
    after: set[str],
) -> tuple[str, ...]:
    """The warnings of both modes: what `turned_on` requires that is not `after` (on once the
    install is done), said as left out when the selection leaves it out."""
    from installer.agent.guards import missing_requirements

    known = {r.label for r in resources}
    left = known - {r.label for r in chosen}
    return missing_requirements(ctx.manifest, turned_on, after, known, left)


def _telling(result: PlanResult, kept: list[str]) -> PlanResult:
    """The result, with where each user's file is that a removed link had replaced."""
    return result._replace(notes=(*result.notes, *kept)) if kept else result


def _loads(lines: tuple[Action, ...], chosen: Sequence[Resource]) -> tuple[Action, ...]:
    """The register line, with the items pi then loads from the entry, as a link plan names
    each link (helper-53: a switch from link mode said `packages` alone, while four items not
    installed came on)."""
    from installer.ground.few import few

    labels = [r.label for r in chosen]
    what = f"{len(labels)} item{'' if len(labels) == 1 else 's'}: {few(labels)}"
    said = f"packages: pi loads {what}" if labels else "packages: pi loads no item of the set"
    return tuple(a._replace(detail=said) if a.action == "register" else a for a in lines)


def _kept(ctx: Context, links: tuple[Action, ...]) -> list[str]:
    """Where the user's own file is that a link this run removes had replaced."""
    if not any(a.action in ("prune", "unlink") for a in links):
        return []  # a no-op or a fresh install: nothing to look for
    from installer.links.kept import kept_backups

    return kept_backups(ctx.agent_dir, links, ctx.on.title)


def _filters_record(extra: dict[str, Any], mode: str, skipped: list[str]) -> dict[str, Any]:
    """Switches live where pi reads them (`.off` links, the entry's and top-level patterns);
    the record keeps only the filters ext wrote for --only/--skip, which it may drop."""
    out = {k: v for k, v in extra.items() if k not in ("disabled", SKIPPED)}
    if mode == "register" and skipped:
        out[SKIPPED] = list(skipped)
    return out


def _seeds_record(
    ctx: Context, reseed: bool, previous: SetRecord | None, wrote: list[str]
) -> dict[str, list[str]]:
    """The record's seed keys: each written once or found there (`seeded`: never written
    again), and of those the ones an install of the set wrote (`wrote`: not the user's)."""
    before = previous.extra.get(WROTE) if previous is not None else None
    earlier = [k for k in before if isinstance(k, str)] if isinstance(before, list) else []
    out = {"seeded": _seeded(ctx, reseed, previous)}
    if earlier or wrote:  # kept only once there is one: a record of an older ext stays as is
        out[WROTE] = sorted({*earlier, *wrote})
    return out


def _seeded(ctx: Context, reseed: bool, previous: SetRecord | None) -> list[str]:
    """The seed keys written once here: those of earlier installs (none with --reseed), and
    each of the manifest's that settings.json holds now. A seed a parent that is not an object
    kept out is not among them: once the user makes room, the next install writes it."""
    before = () if reseed or previous is None else seeded_before(previous, ctx)
    keys = seed_keys(ctx)
    if not keys:
        return sorted(before)  # a set that seeds nothing: settings.json is not read
    from installer.ground.errors import ExtError
    from installer.settings import dotted, read_settings

    try:
        data = read_settings(settings_path(ctx)).data
    except ExtError:
        data = None  # unread, as when the install began: every seed counts, as before
    if isinstance(data, dict):
        keys = frozenset(k for k in keys if dotted.lookup(data, k).found)
    return sorted({*before, *keys})


def _link_plan(
    ctx: Context,
    agent: AgentState,
    resources: tuple[Resource, ...],
    chosen: tuple[Resource, ...],
    old: list[Path],
    mine: tuple[str, ...] = (),
) -> tuple[Plan, tuple[Flip, ...], tuple[str, ...]]:
    """Link mode's links, the top-level switches they need, and what was carried over.

    What the set's packages entry kept off stays off: parked (`.off`), or with `[set] switch =
    "pi"` linked in place and off by pi config's own `-path`, into which that style also turns
    the links it finds parked. What only ext's own filters of an earlier --only/--skip (`mine`)
    kept off is not a switch: it was left out for that run, and this one selects anew."""
    by_pi = ctx.manifest.switch == "pi"
    ext_s = set(mine)
    parked = [r for r in off_in_entry(ctx, resources, old) if not set(r.filters) <= ext_s]
    picked = frozenset(chosen)  # 10,000 items against a tuple of 10,000: 1.3 s of a no-op
    left_out = tuple(r for r in resources if r not in picked)
    off_now = off_as_linked(ctx, agent, left_out) if left_out else []
    # Strays are links of ours already there: an empty agent dir has none to look for.
    gone = strays(agent, places(resources), PI_KINDS) if agent.entries else []
    links = plan_install(
        agent, resources, chosen, ctx.env.now, () if by_pi else parked, off_now, gone
    )
    now = linked_now(links.actions, chosen)
    refuse_unloadable_entries(now)  # before the import scan, which would read them too
    refuse_lost_imports(ctx, now)
    flips = _carried_to_top(ctx, resources, parked, by_pi)
    if not by_pi:
        return links, flips, _carried(parked, "off as `.off` links (pi's entry filter goes)")
    from installer.links.switch import linked_view, plan_unpark

    warnings = _carried(parked, "off as `-path`s, which pi config lists")
    up = plan_unpark(linked_view(ctx, agent, resources), links.actions)
    why = _unreadable(ctx) if up.flips else None
    if why is not None:  # no `-path` can be written: a parked link stays parked, so still off
        return links, flips, (*warnings, f"parked links stay parked: {why}")
    return links._replace(actions=up.actions), flips + up.flips, warnings + up.warnings


def _from_register(ctx: Context, state: State) -> Made | None:
    """Register -> link: what of settings.json is ext's to remove once the entry goes, as
    uninstall would: the `packages` key ext added, and the file if ext made it and nothing else
    is left in it (its journals tell); None when the set was not registered. Refused when the
    entry's switches cannot be read."""
    previous = state.record_of(ctx.set_root, ctx.manifest.name)
    if previous is None or previous.mode != "register":
        return None
    _refuse_unread_switches(ctx)
    from installer.links.leftovers import what_ext_made

    return what_ext_made(ctx.agent_dir, ())


def _refuse_unread_switches(ctx: Context) -> None:
    """Register -> link carries the entry's switches over; unread, they would be lost."""
    from installer.ground.errors import ExtError
    from installer.settings import read_settings

    try:
        read_settings(settings_path(ctx))
    except ExtError as err:
        why = err.message.removesuffix("; nothing was changed")
        raise ExtError(
            f"{why}: register -> link would lose the switches of the set's packages entry "
            "(what it keeps off would be linked on); nothing was changed",
            fix=err.fix,
        ) from None


def _unreadable(ctx: Context) -> str | None:
    """Why settings.json cannot be read, or None when it can (or is absent)."""
    from installer.ground.errors import ExtError
    from installer.settings import read_settings

    try:
        read_settings(settings_path(ctx))
    except ExtError as err:
        return err.message
    return None


def _forgettable_roots(ctx: Context, state: State) -> list[Path]:
    """Older roots of the set that no link leads into any more (a skipped item may keep one)."""
    old = state.old_roots(ctx.set_root, ctx.manifest.name)
    if not old:
        return []
    agent = scan(ctx.agent_dir, ctx.set_root, old)
    kept = {e.root for e in agent.entries.values() if e.owner == "moved"}
    return [p for p in old if str(p) not in kept]


def _shared(
    ctx: Context, mode: str, agent: AgentState, chosen: tuple[Resource, ...], old: list[Path]
) -> tuple[str, ...]:
    """A warning per skill left on whose name a shared skills folder holds too (not a
    refusal: the shared copy is the user's own)."""
    skills = tuple(r for r in chosen if r.kind == "skill")
    if not skills:
        return ()
    from installer.sets.shared_skills import twins_here

    if mode == "link":
        off = set(off_as_linked(ctx, agent, skills))
    else:
        off = set(off_in_entry(ctx, skills, old))
    return tuple(t.warning for t in twins_here(ctx, [r for r in skills if r not in off], mode))


def _refuse_what_the_mode_cannot_do(ctx: Context, mode: str, chosen: tuple[Resource, ...]) -> None:
    _refuse_ext_s_own_names(chosen)
    if mode == "link":
        refuse_unlinkable(chosen)
        return
    refuse_unloadable_entries(chosen)  # loaded in place, a FIFO entry hangs pi as a link's does
    if loads_as_one_extension(ctx.set_root, ctx.pi_line()):
        raise UsageError(
            f"{ctx.set_root} has nothing pi would load (no extensions/, skills/, prompts/ or "
            "themes/, no pi manifest): registered, pi would take the folder itself for one "
            "extension and fail to load it; nothing was changed",
            "add an item first (`ext add`), or install it with --mode link",
        )


def _refuse_ext_s_own_names(chosen: tuple[Resource, ...]) -> None:
    """An extension named as one of ext's own agent files (`ext-command.ts`, /ext): linked,
    it took ext's place and ext backed its own link up as a stranger's (helper-57);
    registered, pi would load two /ext commands. Refused in both modes (exit 2)."""
    from installer.agent.recorder import FILES

    own = {f.dest: f for f in FILES}
    taken = [(r, own[r.dest]) for r in chosen if r.kind == "extension" and r.dest in own]
    if not taken:
        return
    from installer.ground.shellword import skip_flag

    said = "; ".join(f"{r.label} ({r.source}) has the name of {f.what}" for r, f in taken)
    raise UsageError(
        f"{said}: ext puts its own file there; nothing was changed",
        f"rename it in the set, or leave it out with {skip_flag(r.label for r, _ in taken)}",
    )


def _carried_to_top(
    ctx: Context, resources: tuple[Resource, ...], parked: list[Resource], by_pi: bool
) -> tuple[Flip, ...]:
    """Register -> link, in the top-level array, as pi config would switch: an item on in the
    entry but off by an older top-level `-path` (made while linked before) is switched on, its
    latest switch winning; with `switch = "pi"`, an item the entry kept off gets its `-path`."""
    from installer.settings.switches import (
        KEYS,
        linked_switch,
        package_entries,
        path_of,
        scopes_of,
    )

    scopes = scopes_of(ctx)
    entry = any(sc.name == "user" for sc, _ in package_entries(scopes, ctx.set_root))
    if not entry and not (by_pi and parked):
        return ()  # nothing to carry over
    out = []
    for r in resources:
        found = linked_switch(scopes, r.kind, path_of(r))
        off_at_top = found is not None and not found.on
        if r in parked and by_pi and not off_at_top:
            out.append(Flip(False, KEYS[r.kind], path_of(r), False))
        elif r not in parked and off_at_top and entry:
            out.append(Flip(False, KEYS[r.kind], path_of(r), True))
    return tuple(out)


def _register_intent(
    ctx: Context,
    agent: AgentState,
    resources: tuple[Resource, ...],
    chosen: tuple[Resource, ...],
    old: list[Path],
    mine: tuple[str, ...],
) -> tuple[Intent, tuple[str, ...]]:
    """Register mode's settings intent: the entry with the filters of what is left out or
    switched off (as linked before), and the warnings that say which switches came along,
    and which of the entry's name a file the set no longer has (the item may have moved)."""
    carried = off_as_linked(ctx, agent, resources)
    picked = frozenset(chosen)
    left_out = tuple(r for r in resources if r not in picked)
    skipped = skip_filters(ctx, left_out, mine, carried)
    intent = Intent(
        seed=True,
        excluded=entry_filters(ctx, resources, old, (*left_out, *carried), skipped),
        old_roots=tuple(old),
        released=mine,
        skipped=tuple(skipped),
    )
    from installer.ground.shellword import shell_word as word

    moved = [
        f"{pattern} in the set's packages entry names no file of the set now; if it switched "
        f"{r.label} off, which is at {r.declared[0] if r.declared else r.dest} now and on, "
        f"`ext disable {word(r.label)}` keeps it off"
        for r, pattern in moved_off(ctx, resources, mine)
    ]
    return intent, (*_carried(carried, "off as filters of the packages entry"), *moved)


def _taken_over(ctx: Context, state: State) -> tuple[str, ...]:
    """Register mode: a packages entry for the set that ext did not write (`pi install` of
    the set's folder, by hand) becomes the set's, which `ext uninstall` removes: said, since
    the plan has no line for an entry it leaves as it is (helper-30)."""
    previous = state.record_of(ctx.set_root, ctx.manifest.name)
    if previous is not None and previous.mode == "register":
        return ()
    from installer.settings import SetPackage, find_entries
    from installer.settings.store import glance

    path = settings_path(ctx)
    data = glance(path)
    found = find_entries(data, SetPackage.of(ctx.set_root, path)) if "packages" in data else []
    if not found:
        return ()
    entry = data["packages"][found[0]]
    source = entry.get("source") if isinstance(entry, dict) else entry
    return (
        f"settings.json already registers the set ({source!r}, not written by ext): ext keeps "
        "it as the set's entry from now on, and `ext uninstall` removes it",
    )


def _carried(off: list[Resource], how: str) -> tuple[str, ...]:
    if not off:
        return ()
    verb = "stays" if len(off) == 1 else "stay"
    return (f"switched off before, so {', '.join(r.label for r in off)} {verb} {how}",)
