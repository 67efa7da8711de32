"""Consent changes go in the journal too, so `ext undo` can take an approval back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from installer import __version__
from installer.context import Context
from installer.engine import journal
from installer.engine.transaction import encode, read_text

T = TypeVar("T")


def journaled(ctx: Context, command: str, change: Callable[[], T]) -> T:
    """Run a consent change, and journal the approvals store's bytes before and after it."""
    from installer.consent.store import store_path

    path = store_path(ctx.agent_dir)
    before = read_text(path)
    result = change()
    after = read_text(path)
    if after != before:
        log = journal.Journal(ctx.agent_dir, command, ctx.env.now(), __version__)
        log.record(
            {"op": "file", "file": str(path), "before": encode(before), "after": encode(after)}
        )
        log.close("ok")
        journal.trim(ctx.agent_dir)
    return result
