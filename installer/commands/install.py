"""`ext install`: link every selected resource of the set into the agent dir."""

from __future__ import annotations

from installer.commands.common import Confirm, run_plan, set_record
from installer.context import Context
from installer.links.apply import apply_links
from installer.links.plan import plan_install
from installer.links.scan import scan
from installer.plan import Plan
from installer.resources import discover, select
from installer.result import PlanResult
from installer.state import State, load_state


def install(
    ctx: Context, only: list[str], skip: list[str], dry_run: bool, confirm: Confirm
) -> PlanResult:
    """Plan the links, show them, and apply them once confirmed."""
    resources = discover(ctx.set_root)
    chosen = select(resources, only, skip)

    def make_plan() -> Plan:
        state = load_state(ctx.agent_dir)
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        agent = scan(ctx.agent_dir, ctx.set_root, old)
        plan = plan_install(agent, resources, chosen, ctx.env.now())
        return Plan(plan.command, plan.actions, ctx.manifest.warnings)

    def new_state(state: State) -> State:
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        return state.with_set(set_record(ctx, "link"), drop=old)

    return run_plan(
        ctx, make_plan, lambda p: lambda tx: apply_links(p, tx), confirm, dry_run, new_state
    )
