"""Carry out a link plan, step by step, inside a Transaction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from installer.plan import Action, Plan

if TYPE_CHECKING:  # a plan with nothing to write loads none of the writing machinery
    from installer.context import Context
    from installer.engine.executor import Step
    from installer.engine.transaction import Transaction
    from installer.settings.plan import SettingsPlan


def apply_links(plan: Plan, tx: Transaction) -> None:
    """Take each write of the plan in order; the caller rolls back on an exception.

    Links in a row are made together (one journal write for all of them): a fresh install
    is a thousand links in a row.
    """
    links: list[tuple[str, str]] = []
    for action in plan.changes:
        if action.path == "settings.json":  # settings actions are one merged write, done apart
            continue
        if action.action == "link":
            links.append((action.path, _need(action.target, action)))
            continue
        if links:
            tx.symlinks(links)
            links = []
        _apply(action, tx)
    if links:
        tx.symlinks(links)


def _apply(a: Action, tx: Transaction) -> None:
    if a.action == "backup":
        tx.rename(a.path, _need(a.backup, a))
    elif a.action == "relink":
        tx.relink(a.path, _need(a.target, a))
    elif a.action in ("prune", "unlink"):
        tx.unlink(a.path)
    elif a.action in ("enable", "disable"):
        tx.rename(a.path, _need(a.target, a))


def _need(value: str | None, a: Action) -> str:
    if value is None:
        raise ValueError(f"a {a.action} action for {a.path} lacks its target")
    return value


def with_settings(
    ctx: Context, plan: Plan, sp: SettingsPlan, *, settings_first: bool = False
) -> Step:
    """The step that applies a plan's links, then its settings.json change (if it has one);
    `settings_first`: the other way round."""

    def step(tx: Transaction) -> None:
        from installer.settings.plan import settings_path

        writes = any(a.path == "settings.json" for a in plan.changes)
        change = sp.change if writes else None
        if change is not None and settings_first:
            tx.settings(settings_path(ctx), change)
        apply_links(plan, tx)
        if change is not None and not settings_first:
            tx.settings(settings_path(ctx), change)

    return step
