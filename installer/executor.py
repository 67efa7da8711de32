"""Apply a plan: journal each step, roll back on any failure, record the state when done."""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path

from installer import __version__, journal
from installer.context import Context
from installer.errors import ExtError, RolledBack
from installer.plan import Plan
from installer.transaction import Transaction

Step = Callable[[Transaction], None]


def execute(ctx: Context, plan: Plan, step: Step, after: Callable[[], None] | None = None) -> None:
    """Run `step` inside a journaled transaction; on an exception, reverse it and exit 1."""
    try:
        log = journal.Journal(ctx.agent_dir, plan.command, ctx.env.now(), __version__, plan.mode)
    except OSError as exc:
        raise ExtError(
            f"cannot start the journal: {_describe(exc)}; nothing was written", _fix(exc)
        ) from None
    tx = Transaction(ctx.agent_dir, log)
    try:
        step(tx)
        if after is not None:
            after()
    except BaseException as exc:
        failures = tx.rollback()
        log.close("rolled-back" if not failures else "rollback-failed")
        if isinstance(exc, KeyboardInterrupt):
            raise RolledBack from exc
        raise _failure(exc, failures) from exc
    log.close("ok")
    journal.trim(ctx.agent_dir)


def _failure(exc: BaseException, failures: list[str]) -> ExtError:
    cause = exc.message if isinstance(exc, ExtError) else _describe(exc)
    if failures:
        return ExtError(
            f"{cause}; rolling back failed for: {'; '.join(failures)}",
            "see the journal in .extset/journal/ of the agent dir; `ext undo` can finish it",
        )
    return ExtError(f"{cause}; every change of this run was rolled back", _fix(exc))


def _fix(exc: BaseException) -> str:
    if isinstance(exc, ExtError) and exc.fix:
        return exc.fix
    denied = (errno.EACCES, errno.EPERM, errno.EROFS)
    if isinstance(exc, OSError) and exc.errno in denied and exc.filename:
        return f"give yourself write access to {Path(exc.filename).parent}, then run it again"
    return "fix the cause and run it again"


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        where = f" {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}:{where}"
    return f"{type(exc).__name__}: {exc}"
