"""`ext install`: link every selected resource of the set, or register the set as a package."""

from __future__ import annotations

from pathlib import Path

from installer.commands.common import Confirm, Prepared, run_plan, set_record
from installer.commands.launch import drift_warning
from installer.commands.set_hooks import plan_set_hooks, recorded_hooks
from installer.commands.settings_plan import (
    Intent,
    SettingsPlan,
    excluded_filters,
    plan_settings,
    settings_path,
)
from installer.context import Context
from installer.errors import UsageError
from installer.executor import Step
from installer.links.apply import apply_links
from installer.links.plan import plan_install, plan_uninstall
from installer.links.scan import scan
from installer.manifest import MODES
from installer.plan import Plan
from installer.recorder import plan_recorder, recorded, wants_recorder
from installer.resources import Resource, discover, select
from installer.result import PlanResult
from installer.state import State, load_state
from installer.transaction import Transaction


def install_mode(ctx: Context, explicit: str | None) -> str:
    """--mode > the mode this set was installed with here > the manifest."""
    if explicit is not None:
        if explicit not in MODES:
            raise UsageError(f"unknown mode {explicit!r}", "use --mode link or --mode register")
        return explicit
    record = load_state(ctx.agent_dir).record_of(ctx.set_root, ctx.manifest.name)
    return record.mode if record else ctx.manifest.mode


def install(
    ctx: Context,
    only: list[str],
    skip: list[str],
    dry_run: bool,
    confirm: Confirm,
    mode: str | None = None,
) -> PlanResult:
    """Plan the links (or the package entry) and seeds, show them, and apply once confirmed."""
    mode = install_mode(ctx, mode)
    resources = discover(ctx.set_root)
    chosen = select(resources, only, skip)
    drift = drift_warning(ctx)
    first_warnings = ((drift,) if drift else ()) + ctx.manifest.warnings

    def prepare() -> Prepared:
        state = load_state(ctx.agent_dir)
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        agent = scan(ctx.agent_dir, ctx.set_root, old)
        # Installing in one mode removes the other mode's form: pi would load the set twice.
        if mode == "link":
            links = plan_install(agent, resources, chosen, ctx.env.now())
            intent = Intent(seed=True, unregister=True, old_roots=tuple(old))
        else:
            links = plan_uninstall(agent)
            excluded = _register_filters(state, ctx, resources, chosen)
            intent = Intent(seed=True, excluded=excluded, old_roots=tuple(old))
        sp = plan_settings(ctx, intent)
        # ext's session recorder, when a process guard needs it (installer/recorder.py).
        wanted = wants_recorder(ctx.manifest)
        rec = plan_recorder(ctx.agent_dir, agent, state, ctx.set_root, wanted, resources)
        previous = state.record_of(ctx.set_root, ctx.manifest.name)
        hooks = plan_set_hooks(ctx.set_root, previous.extra if previous else {})
        actions = links.actions + rec.actions + sp.actions + hooks
        plan = Plan("install", actions, first_warnings + rec.warnings + sp.warnings)
        return Prepared(plan, rec.wrap(with_settings(ctx, plan, sp)), (sp.diff,) if sp.diff else ())

    def new_state(state: State) -> State:
        previous = state.record_of(ctx.set_root, ctx.manifest.name)
        extra = recorded(ctx.agent_dir, previous.extra if previous else {})
        extra = recorded_hooks(ctx.set_root, extra, ctx.env.now())
        record = set_record(ctx, mode, extra)
        return state.with_set(record, drop=_forgettable_roots(ctx, state))

    return run_plan(ctx, prepare, confirm, dry_run, new_state)


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
        apply_links(plan, tx)
        if sp.change is not None and any(a.path == "settings.json" for a in plan.changes):
            tx.settings(settings_path(ctx), sp.change)

    return step


def _register_filters(
    state: State, ctx: Context, resources: tuple[Resource, ...], chosen: tuple[Resource, ...]
) -> tuple[str, ...]:
    """The extensions to keep out of pi: those not selected, and those the user disabled."""
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    disabled = tuple(record.extra.get("disabled", ())) if record else ()
    unselected = excluded_filters(r for r in resources if r not in chosen)
    return tuple(dict.fromkeys((*unselected, *disabled)))
