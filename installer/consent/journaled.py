"""Consent changes are plans too: under the agent lock, journaled before the write, undone by
`ext undo`, carried out by the executor's table like every other write."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from installer.consent.store import Change, Store
from installer.engine.plan import Plan
from installer.ground.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.engine.plan import Word

StoreWriter = Callable[[Path, Change], Store]


def journaled(ctx: Context, command: str) -> StoreWriter:
    """A writer of the approvals store (as update_store) that runs its change as a plan of one
    action (`approve` or `revoke`) through run_plan; the caller has asked already."""
    word: Word = "revoke" if command == "consent revoke" else "approve"

    def write(agent_dir: Path, change: Change) -> Store:
        from installer.consent.store import check_safe, store_path
        from installer.engine.plan import Action, StoreWrite
        from installer.engine.run import Prepared, run_plan

        check_safe(agent_dir)  # refused before the run, as update_store refuses it
        seen: list[Store] = []
        where = str(store_path(agent_dir).relative_to(agent_dir))
        action = Action(word, where, payload=StoreWrite(change, seen.append))
        plan = Plan(command, (action,), of_set=False)  # the project's, whichever set is here
        run_plan(ctx, lambda: Prepared(plan), _asked, dry_run=False, settles=False)
        return seen[-1]

    return write


def _asked(plan: Plan, diffs: tuple[str, ...]) -> None:
    """The consent commands show the hooks and ask themselves, before the plan is made."""
