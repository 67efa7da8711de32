"""Carry out a link plan, step by step, inside a Transaction."""

from __future__ import annotations

from installer.plan import Action, Plan
from installer.transaction import Transaction


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
