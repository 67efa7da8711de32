"""`ext uninstall`: remove our links, enabled and disabled; backups stay."""

from __future__ import annotations

from installer.commands.common import Confirm, run_plan
from installer.context import Context
from installer.links.apply import apply_links
from installer.links.plan import plan_uninstall
from installer.links.scan import scan
from installer.plan import Plan
from installer.result import PlanResult
from installer.state import State, load_state


def uninstall(ctx: Context, dry_run: bool, confirm: Confirm) -> PlanResult:
    """Plan the removals, show them, and apply them once confirmed."""

    def make_plan() -> Plan:
        state = load_state(ctx.agent_dir)
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        return plan_uninstall(scan(ctx.agent_dir, ctx.set_root, old))

    def new_state(state: State) -> State:
        return state.without([ctx.set_root, *state.old_roots(ctx.set_root, ctx.manifest.name)])

    return run_plan(
        ctx, make_plan, lambda p: lambda tx: apply_links(p, tx), confirm, dry_run, new_state
    )
