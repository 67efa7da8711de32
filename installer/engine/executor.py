"""Apply a plan: journal each step, roll back on any failure, record the state when done."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from installer import __version__
from installer.engine import journal
from installer.engine.plan import Plan
from installer.engine.transaction import Transaction
from installer.ground.context import Context
from installer.ground.errors import ExtError, RolledBack, Terminated, failed_path, fix_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def execute(ctx: Context, plan: Plan) -> None:
    """Carry out the plan's actions through installer/engine/apply.py's table, inside a
    journaled transaction; on an exception, reverse it and exit 1."""
    from installer.engine.apply import check_payloads

    check_payloads(plan)  # before the journal: a plan the table cannot carry out writes nothing
    try:
        this_set = (ctx.manifest.name, str(ctx.set_root)) if plan.of_set else None
        set_of = plan.undone_set or this_set
        log = journal.Journal(
            ctx.agent_dir, plan.command, ctx.env.now(), __version__, plan.mode, set_of, plan.asked
        )
    except OSError as exc:
        raise ExtError(
            f"cannot start the journal: {_describe(exc)}; nothing was written",
            fix_for(exc, ctx.agent_dir),
        ) from None
    tx = Transaction(ctx.agent_dir, log)
    held = _handlers()  # the stops' handlers now: put back once the run is over, either way
    try:
        _apply_or_roll_back(plan, tx, log)
        _ignore_stops()  # the purge is past the point of no return: a stop must not cut it
        tx.purge()  # what the run only moved aside (undo's copies, deleted backups) goes now
        log.close("ok")
    finally:
        _put_back(held)
    journal.trim(ctx.agent_dir)


def _apply_or_roll_back(plan: Plan, tx: Transaction, log: journal.Journal) -> None:
    """Take the plan's steps; on any exception (a stop included), take them back and raise:
    RolledBack for a stop whose steps all came back, else the failure, with what did not."""
    from installer.engine.apply import apply_plan

    try:
        with _stops_as_ctrl_c():
            apply_plan(plan, tx)
    except BaseException as exc:
        _ignore_stops()  # a second Ctrl-C must not leave the rollback half done
        failures = tx.rollback()
        try:
            log.close("rolled-back" if not failures else "rollback-failed")
        except OSError:  # a full disk; the error the user sees is the one that stopped it
            if not failures:  # all taken back: an open-ended journal would mislead undo
                with contextlib.suppress(OSError):
                    os.unlink(log.path)
        if isinstance(exc, KeyboardInterrupt) and not failures:
            raise RolledBack from exc
        raise _failure(exc, failures, tx.root) from exc


_STOPS = ("SIGINT", "SIGTERM", "SIGHUP")  # what stops a run: rolled back, never half done


@contextlib.contextmanager
def _stops_as_ctrl_c() -> Iterator[None]:
    """SIGTERM and SIGHUP raise, as SIGINT does, while the steps are taken (main thread only,
    where Python handles signals), so that the rollback reverses them. From the first stop,
    or any failure, all three are ignored: the rollback and the cleanups that unwind before
    it are not cut short by a second one (execute puts the handlers back after it). One
    ignored when ext started (`nohup ext install`) stays ignored (helper-31)."""
    import signal

    if not _in_main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        _ignore_stops()
        raise Terminated(signum)

    stops = [s for s in _signals()[1:] if signal.getsignal(s) is not signal.SIG_IGN]
    for s in stops:
        signal.signal(s, stop)
    try:
        yield
    finally:  # either way the purge or the rollback is next: nothing may cut it short
        _ignore_stops()  # execute puts the handlers as they were back after it (helper-34)


def _signals() -> list[int]:
    import signal

    return [getattr(signal, name) for name in _STOPS if hasattr(signal, name)]


def _in_main_thread() -> bool:
    """Where Python handles signals. Asked of `threading` only when something imported it:
    without it no thread was started here, and its import costs a fresh install ~0.7 ms."""
    import sys

    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()


def _handlers() -> dict[int, Any]:
    """The stops' handlers now (none outside the main thread, where none can be set)."""
    import signal

    return {s: signal.getsignal(s) for s in _signals()} if _in_main_thread() else {}


def _ignore_stops() -> None:
    import signal

    if _in_main_thread():
        for s in _signals():
            signal.signal(s, signal.SIG_IGN)


def _put_back(held: dict[int, Any]) -> None:
    import signal

    for s, handler in held.items():
        signal.signal(s, signal.SIG_DFL if handler is None else handler)


def _failure(exc: BaseException, failures: list[str], agent_dir: Path) -> ExtError:
    cause = "interrupted" if isinstance(exc, KeyboardInterrupt) else None
    cause = cause or (exc.message if isinstance(exc, ExtError) else _describe(exc))
    if failures:
        return ExtError(
            f"{cause}; rolling back failed for: {'; '.join(failures)}",
            "see the journal in .extset/journal/ of the agent dir; `ext undo` can finish it",
        )
    fix = fix_for(exc, agent_dir)
    return ExtError(f"{cause}; every change of this run was rolled back", fix)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        where = failed_path(exc)
        return f"{exc.strerror}: {where}" if where else exc.strerror
    return f"{type(exc).__name__}: {exc}"
