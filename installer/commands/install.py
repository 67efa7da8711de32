"""`ext install`: link every selected resource of the set, or register the set as a package."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from installer import journal
from installer.commands.common import Confirm, Prepared, run_plan, set_record
from installer.commands.launch import drift_warning
from installer.commands.listing import classify
from installer.commands.set_hooks import plan_set_hooks, recorded_hooks
from installer.commands.settings_plan import (
    Intent,
    SettingsPlan,
    excluded_filters,
    plan_settings,
    seed_keys,
    settings_path,
)
from installer.context import Context
from installer.errors import UsageError
from installer.links.plan import plan_install, plan_uninstall
from installer.links.scan import AgentState, scan, seen
from installer.links.shared import refuse_clashes
from installer.manifest import MODES
from installer.plan import Plan
from installer.recorder import plan_recorder, recorded, wants_recorder
from installer.resources import Resource, discover, select
from installer.result import PlanResult
from installer.state import SetRecord, State, load_state

if TYPE_CHECKING:
    from installer.executor import Step
    from installer.transaction import Transaction


def install_mode(ctx: Context, explicit: str | None) -> str:
    """--mode > an interrupted install's mode > the mode this set was installed with here >
    the manifest."""
    if explicit is not None:
        if explicit not in MODES:
            import difflib

            close = difflib.get_close_matches(explicit, MODES, n=1, cutoff=0.5)
            fix = "use --mode link or --mode register"
            raise UsageError(
                f"unknown mode {explicit!r}", f"did you mean {close[0]!r}? {fix}" if close else fix
            )
        return explicit
    cut_short = journal.incomplete(ctx.agent_dir)
    if cut_short is not None and cut_short.command == "install" and cut_short.mode in MODES:
        return cut_short.mode  # finishing it means finishing it in its own mode
    record = load_state(ctx.agent_dir).record_of(ctx.set_root, ctx.manifest.name)
    return record.mode if record else ctx.manifest.mode


def install(
    ctx: Context,
    only: list[str],
    skip: list[str],
    dry_run: bool,
    confirm: Confirm,
    mode: str | None = None,
    *,
    reseed: bool = False,
) -> PlanResult:
    """Plan the links (or the package entry) and seeds, show them, and apply once confirmed.

    A seed is written once: the state record keeps the keys seeded here, and a key the
    user removed since stays removed, unless `reseed`.
    """
    mode = install_mode(ctx, mode)
    resources = discover(ctx.set_root)
    chosen = select(resources, only, skip)
    drift = drift_warning(ctx)
    first_warnings = ((drift,) if drift else ()) + ctx.manifest.warnings
    switched_off: list[str] = []  # register mode: the filters of what the user disabled

    def prepare() -> Prepared:
        state = load_state(ctx.agent_dir)
        done = (
            frozenset()
            if reseed
            else seeded_before(state.record_of(ctx.set_root, ctx.manifest.name), ctx)
        )
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        others = state.others(ctx.set_root, ctx.manifest.name)
        other_roots = [Path(o.root) for o in others]
        agent = scan(ctx.agent_dir, ctx.set_root, old, seen(resources), other_roots)
        # Installing in one mode removes the other mode's form: pi would load the set twice.
        mode_warnings: tuple[str, ...] = ()
        if mode == "link":
            refuse_clashes(agent, chosen, ctx.manifest.name, others)
            parked = _switched_off(state, ctx, resources)
            links = plan_install(agent, resources, chosen, ctx.env.now(), parked)
            intent = Intent(seed=True, seeded=done, unregister=True, old_roots=tuple(old))
        else:
            links = plan_uninstall(agent)
            switched_off[:] = _user_off(state, ctx, agent, resources)
            mode_warnings = _lost_switches(agent, resources)
            unselected = excluded_filters(r for r in resources if r not in chosen)
            excluded = tuple(dict.fromkeys((*unselected, *switched_off)))
            intent = Intent(seed=True, seeded=done, excluded=excluded, old_roots=tuple(old))
        sp = plan_settings(ctx, intent)
        # ext's session recorder, when a process guard needs it (installer/recorder.py).
        wanted = wants_recorder(ctx.manifest)
        rec = plan_recorder(ctx.agent_dir, agent, state, ctx.set_root, wanted, resources)
        previous = state.record_of(ctx.set_root, ctx.manifest.name)
        hooks = plan_set_hooks(ctx.set_root, previous.extra if previous else {})
        actions = links.actions + rec.actions + sp.actions + hooks
        warnings = first_warnings + mode_warnings + rec.warnings + sp.warnings
        plan = Plan("install", actions, warnings, mode)
        return Prepared(plan, rec.wrap(with_settings(ctx, plan, sp)), (sp.diff,) if sp.diff else ())

    def new_state(state: State) -> State:
        previous = state.record_of(ctx.set_root, ctx.manifest.name)
        extra = recorded(ctx.agent_dir, previous.extra if previous else {})
        extra = recorded_hooks(ctx.set_root, extra, ctx.env.now())
        # What the user switched off lives in .off links in link mode, in this list in register.
        extra.pop("disabled", None)
        if mode == "register" and switched_off:
            extra["disabled"] = list(switched_off)
        before = () if reseed or previous is None else seeded_before(previous, ctx)
        extra["seeded"] = sorted({*before, *seed_keys(ctx)})
        record = set_record(ctx, mode, extra)
        return state.with_set(record, drop=_forgettable_roots(ctx, state))

    return run_plan(ctx, prepare, confirm, dry_run, new_state)


def seeded_before(record: SetRecord | None, ctx: Context) -> frozenset[str]:
    """The seed keys this set already wrote here once (none on a first install).

    A record from before ext kept this list was made by an install that seeded every key
    of its manifest: those count as seeded.
    """
    if record is None:
        return frozenset()
    keys = record.extra.get("seeded")
    if keys is None:
        return seed_keys(ctx)
    return (
        frozenset(k for k in keys if isinstance(k, str)) if isinstance(keys, list) else frozenset()
    )


def _forgettable_roots(ctx: Context, state: State) -> list[Path]:
    """Older roots of the set that no link leads into any more (a skipped item may keep one)."""
    old = state.old_roots(ctx.set_root, ctx.manifest.name)
    if not old:
        return []
    agent = scan(ctx.agent_dir, ctx.set_root, old)
    kept = {e.root for e in agent.entries.values() if e.owner == "moved"}
    return [p for p in old if str(p) not in kept]


def with_settings(ctx: Context, plan: Plan, sp: SettingsPlan) -> Step:
    """The step that applies a plan's links, then its settings.json change (if it has one)."""

    def step(tx: Transaction) -> None:
        from installer.links.apply import apply_links

        apply_links(plan, tx)
        if sp.change is not None and any(a.path == "settings.json" for a in plan.changes):
            tx.settings(settings_path(ctx), sp.change)

    return step


def _switched_off(state: State, ctx: Context, resources: tuple[Resource, ...]) -> list[Resource]:
    """Extensions the user disabled while the set was registered (its filter), for link mode."""
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    if record is None or record.mode != "register":
        return []
    disabled = set(record.extra.get("disabled", ()))
    return [r for r in resources if excluded_filters([r]) and excluded_filters([r])[0] in disabled]


def _lost_switches(agent: AgentState, resources: tuple[Resource, ...]) -> tuple[str, ...]:
    """Register mode loads every skill, prompt and theme of the set: say which disabled ones."""
    off = [
        r.label
        for r in resources
        if r.kind != "extension" and classify(agent, r).state == "disabled"
    ]
    if not off:
        return ()
    return (
        f"register mode cannot keep {', '.join(off)} switched off: pi loads every skill, prompt "
        "and theme of a registered set (stay in link mode to keep them off)",
    )


def _user_off(
    state: State, ctx: Context, agent: AgentState, resources: tuple[Resource, ...]
) -> list[str]:
    """The filters of what the user switched off: kept in the record while registered, read
    from our `.off` links when the set comes from link mode."""
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    if record is not None and record.mode == "register":
        return list(record.extra.get("disabled", ()))
    off = [r for r in resources if r.kind == "extension" and classify(agent, r).state == "disabled"]
    return list(excluded_filters(off))
