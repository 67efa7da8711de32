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
    settings_path,
)
from installer.context import Context
from installer.errors import UsageError
from installer.links.plan import plan_install, plan_uninstall
from installer.links.scan import AgentState, scan, seen
from installer.manifest import MODES
from installer.plan import Plan
from installer.recorder import plan_recorder, recorded, wants_recorder
from installer.resources import Resource, discover, loads_as_one_extension, select
from installer.result import PlanResult
from installer.state import State, load_state

if TYPE_CHECKING:
    from installer.executor import Step
    from installer.transaction import Transaction


def install_mode(ctx: Context, explicit: str | None) -> str:
    """--mode > an interrupted install's mode > the mode this set was installed with here >
    the manifest."""
    if explicit is not None:
        if explicit not in MODES:
            raise UsageError(f"unknown mode {explicit!r}", "use --mode link or --mode register")
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
) -> PlanResult:
    """Plan the links (or the package entry) and seeds, show them, and apply once confirmed."""
    mode = install_mode(ctx, mode)
    resources = discover(ctx.set_root)
    chosen = select(resources, only, skip)
    if mode == "link":
        refuse_unlinkable(chosen)
    elif loads_as_one_extension(ctx.set_root):
        raise UsageError(
            f"{ctx.set_root} has nothing pi would load (no extensions/, skills/, prompts/ or "
            "themes/, no pi manifest): registered, pi would take the folder itself for one "
            "extension and fail to load it; nothing was changed",
            "add an item first (`ext add`), or install it with --mode link",
        )
    drift = drift_warning(ctx)
    first_warnings = ((drift,) if drift else ()) + ctx.manifest.warnings
    switched_off: list[str] = []  # register mode: the filters of what the user disabled

    def prepare() -> Prepared:
        state = load_state(ctx.agent_dir)
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        agent = scan(ctx.agent_dir, ctx.set_root, old, seen(resources))
        # Installing in one mode removes the other mode's form: pi would load the set twice.
        if mode == "link":
            parked = _switched_off(state, ctx, resources)
            links = plan_install(agent, resources, chosen, ctx.env.now(), parked)
            intent = Intent(seed=True, unregister=True, old_roots=tuple(old))
        else:
            links = plan_uninstall(agent)
            switched_off[:] = _user_off(state, ctx, agent, resources)
            unselected = excluded_filters(r for r in resources if r not in chosen)
            excluded = tuple(dict.fromkeys((*unselected, *switched_off)))
            intent = Intent(seed=True, excluded=excluded, old_roots=tuple(old))
        sp = plan_settings(ctx, intent)
        # ext's session recorder, when a process guard needs it (installer/recorder.py).
        wanted = wants_recorder(ctx.manifest)
        rec = plan_recorder(ctx.agent_dir, agent, state, ctx.set_root, wanted, resources)
        previous = state.record_of(ctx.set_root, ctx.manifest.name)
        hooks = plan_set_hooks(ctx.set_root, previous.extra if previous else {})
        actions = links.actions + rec.actions + sp.actions + hooks
        warnings = first_warnings + rec.warnings + sp.warnings
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
        record = set_record(ctx, mode, extra)
        return state.with_set(record, drop=_forgettable_roots(ctx, state))

    return run_plan(ctx, prepare, confirm, dry_run, new_state)


def refuse_unlinkable(chosen: tuple[Resource, ...]) -> None:
    """Link mode installs only what a link in the agent dir makes pi load exactly as the set."""
    bad = [r for r in chosen if r.unlinkable]
    if not bad:
        return
    why = "; ".join(f"{r.label}: {r.unlinkable}" for r in bad)
    raise UsageError(
        f"link mode cannot install what pi loads from this set ({why}); nothing was changed",
        "install it with `ext install --mode register` (pi then loads the set as a package), "
        f"or leave these out with --skip {','.join(r.label for r in bad)}",
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
    """Items the user disabled while the set was registered (their filters), for link mode."""
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    if record is None or record.mode != "register":
        return []
    disabled = set(record.extra.get("disabled", ()))
    return [r for r in resources if any(f in disabled for f in r.filters)]


def _user_off(
    state: State, ctx: Context, agent: AgentState, resources: tuple[Resource, ...]
) -> list[str]:
    """The filters of what the user switched off: kept in the record while registered, read
    from our `.off` links when the set comes from link mode."""
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    if record is not None and record.mode == "register":
        return list(record.extra.get("disabled", ()))
    off = [r for r in resources if classify(agent, r).state == "disabled"]
    return list(excluded_filters(off))
