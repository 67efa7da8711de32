"""What the plan/apply commands share: planning under the lock, confirmation, state."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from installer import __version__
from installer.engine import journal
from installer.engine.plan import Action, Plan, StateWrite
from installer.engine.result import PlanResult
from installer.ground.clock import when_run
from installer.ground.context import PI_FOLDERS, Context
from installer.ground.errors import ExtError
from installer.ground.records import NamedTuple
from installer.ground.state import SetRecord, State, load_state, save_state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Confirm = Callable[[Plan, tuple[str, ...]], None]
RECORD = "ext's record (.extset/state.json)"


class Prepared(NamedTuple):
    """A plan and diffs of the files it rewrites; its actions say what to write (the table of
    installer/engine/apply.py carries them out)."""

    plan: Plan
    diffs: tuple[str, ...] = ()


def run_plan(
    ctx: Context,
    prepare: Callable[[], Prepared],
    confirm: Confirm,
    dry_run: bool,
    new_state: Callable[[State], State] | None = None,
    *,
    settles: bool = True,
    mends: bool = False,
) -> PlanResult:
    """scan/plan -> show -> confirm -> lock -> re-plan -> apply; the shape of every writer.

    `settles`: the run reports an earlier interrupted one and closes its journal (finished or
    superseded); consent's runs show no plan to say so in, and leave it to the next writer.
    `mends`: with nothing to do, the run still writes the set's line of the record when it is
    not the one the run would write (install and uninstall: their line is the whole truth)."""
    from installer.ground.own import check_bookkeeping

    check_bookkeeping(ctx.agent_dir)  # before anything reads .extset/: a FIFO there would hang
    seen = fingerprint(ctx.agent_dir, ctx.folders)
    first = prepare()
    warnings = _interrupted(ctx, first.plan) if settles else ()
    plan = first.plan._replace(warnings=(*warnings, *first.plan.warnings))
    if dry_run or plan.is_empty:
        lag = _lags(ctx, new_state) if mends and plan.is_empty else None
        if not dry_run and (warnings or lag):
            _settle(ctx, new_state)
        changed = (dry_run and not plan.is_empty) or lag is not None
        notes = (_mended(lag, dry_run),) if lag else ()
        return PlanResult(
            plan.shown, changed=changed, dry_run=dry_run, diffs=first.diffs, notes=notes
        )
    confirm(plan, first.diffs)
    _check_writable(ctx)
    from installer.engine.executor import execute
    from installer.engine.lock import agent_lock

    with agent_lock(ctx.agent_dir):
        # Under the lock, plan again from the disk as it is now, unless nothing it reads moved.
        again = first if fingerprint(ctx.agent_dir, ctx.folders) == seen else prepare()
        fresh = again.plan
        if fresh.is_empty:  # another run did the job while this one asked: nothing to do
            # ... or the disk read otherwise now: the re-plan's own warnings say how.
            said = tuple(dict.fromkeys((*plan.warnings, *fresh.warnings)))
            shown = fresh.shown._replace(warnings=said)
            return PlanResult(shown, changed=False, dry_run=False)
        if not fresh.same_steps(plan):
            raise ExtError(
                f"{ctx.agent_dir} changed while the plan was on screen; nothing was written",
                "run the command again to see the new plan",
            )
        execute(ctx, _with_record(fresh, new_state))
        if settles:
            _close_interrupted(ctx, fresh)
    return PlanResult(
        fresh.shown._replace(warnings=plan.warnings), changed=True, dry_run=False, applied=True
    )


def _with_record(plan: Plan, new_state: Callable[[State], State] | None) -> Plan:
    """The plan with the state record's write as its last action (bookkeeping: never shown)."""
    if new_state is None:
        return plan
    record = Action("record", ".extset/state.json", payload=StateWrite(new_state))
    return plan._replace(actions=(*plan.actions, record))


Stamp = tuple[int, int, int] | None


def fingerprint(agent_dir: Path, folders: Iterable[str] = PI_FOLDERS) -> tuple[Stamp, ...]:
    """What a plan reads, as stats: every folder it scans, settings.json and the state record.

    A folder's mtime moves with each entry added, removed or renamed in it.
    """
    paths = [agent_dir / "settings.json", agent_dir / ".extset" / "state.json"]
    for folder in folders:
        paths += [agent_dir / folder, agent_dir / folder / ".off", agent_dir / folder / ".bak"]
    return tuple(_stamp(p) for p in paths)


def _stamp(path: Path) -> Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ino, st.st_size)


def _lags(ctx: Context, new_state: Callable[[State], State] | None) -> str | None:
    """How the set's line in the record differs from the one this run would write, though
    the plan is empty ("missing" or "stale"), or None: the record emptied (a power cut can
    leave a new file at 0 bytes), or naming an `ext` that is gone. Only the set's own line
    counts: others' order is not a change."""
    if new_state is None:
        return None
    state = load_state(ctx.agent_dir)
    root, name = ctx.set_root, ctx.manifest.name
    now, wanted = state.record_of(root, name), new_state(state).record_of(root, name)
    if now == wanted:
        return None
    return "missing" if now is None else "stale"


def _mended(lag: str, dry_run: bool) -> str:
    """The note of a run that writes (or would write) only the set's line of the record."""
    written = "would be written" if dry_run else "written"
    if lag == "missing":
        return f"{RECORD} had no line for this set: {written}"
    return f"the set's line in {RECORD} was not what is installed: {written} again"


def _settle(ctx: Context, new_state: Callable[[State], State] | None) -> None:
    """A run killed after its last step leaves nothing to do but its record: write it, close it."""
    _check_writable(ctx)
    from installer.engine.lock import agent_lock

    with agent_lock(ctx.agent_dir):
        if new_state is not None:
            state = load_state(ctx.agent_dir)
            if new_state(state) != state:
                save_state(ctx.agent_dir, new_state(state))
        _close_interrupted(ctx, None)


def _check_writable(ctx: Context) -> None:
    """Say plainly when the agent dir is not ours to write (the lock is the first write)."""
    try:
        # The isolated default is made on demand; a dir the user named must already exist.
        isolated = ctx.agent_dir_source == "isolated"
        (ctx.agent_dir / ".extset").mkdir(mode=0o700, parents=isolated, exist_ok=True)
    except OSError as exc:
        from installer.ground.errors import fix_for

        raise ExtError(
            f"cannot write to {ctx.agent_dir}: {exc.strerror}; nothing was written",
            fix_for(exc, ctx.agent_dir),
        ) from None


def set_record(ctx: Context, mode: str, extra: dict[str, Any] | None = None) -> SetRecord:
    """This set's line in the state record."""
    return SetRecord(str(ctx.set_root), ctx.manifest.name, mode, __version__, dict(extra or {}))


def _interrupted(ctx: Context, plan: Plan) -> tuple[str, ...]:
    rec = journal.incomplete(ctx.agent_dir)
    if rec is None:
        return ()
    head = (
        f"an earlier `ext {rec.command}` (started {when_run(rec.started)}) was interrupted "
        f"part-way ({len(rec.steps)} step(s) journaled)"
    )
    return (f"{head}; {journal.settling(rec, plan.command, plan.asked, plan.mode)}",)


def _close_interrupted(ctx: Context, plan: Plan | None) -> None:
    """Close the interrupted journal: finished by the same run again (or by `plan` None, a run
    that had only its record left to write), else superseded."""
    rec = journal.incomplete(ctx.agent_dir)
    if rec is not None:
        same = plan is None or journal.finishes(rec, plan.command, plan.asked, plan.mode)
        journal.mark(rec.path, "finished-by-next-run" if same else "superseded")
