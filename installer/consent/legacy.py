"""Earlier ext kept the approvals store in `<agent dir>/hooks/`; pi warns about that folder.

pi 0.73.1 warns at every start, and waits for a key in interactive mode, when the agent
dir holds a `hooks/` folder (`dist/migrations.js`, `checkDeprecatedExtensionDirs`). The
first `ext install` or consent command after an upgrade moves the store to
`.extset/consent/` (journaled: `ext undo` puts it back) and removes `hooks/` when nothing
but ext's files were in it.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from installer.consent.store import FILENAME, store_path
from installer.ground.errors import ExtError

if TYPE_CHECKING:
    from installer.ground.context import Context

LEGACY_FOLDER = "hooks"
# What ext itself ever put in `hooks/`: the store and its lock.
OURS = frozenset({FILENAME, f".{FILENAME}.lock"})


@dataclass(frozen=True)
class HooksFolder:
    """What `<agent>/hooks/` holds, as far as ext and pi's warning are concerned."""

    path: Path
    store: Path | None  # ext's old store, when it is there and safe to move
    others: tuple[str, ...]  # entries that are not ext's
    problem: str | None  # why the old store cannot be moved (a link, another owner, ...)


def legacy_store(agent_dir: Path) -> Path:
    """Where ext kept the approvals before they moved under `.extset/`."""
    return agent_dir / LEGACY_FOLDER / FILENAME


def inspect(agent_dir: Path) -> HooksFolder | None:
    """The agent's `hooks/` folder (None when there is none), read without following links."""
    folder = agent_dir / LEGACY_FOLDER
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        kind = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a folder"
        behind = folder / FILENAME if os.path.lexists(folder / FILENAME) else None
        return HooksFolder(folder, behind, (), f"{folder} is {kind}")
    names = sorted(os.listdir(folder))
    others = tuple(n for n in names if n not in OURS)
    if FILENAME not in names:
        return HooksFolder(folder, None, others, None)
    return HooksFolder(folder, folder / FILENAME, others, _unsafe(folder, info))


def migrate(ctx: Context) -> list[str]:
    """Move the old store to `.extset/consent/`, journaled; what was done or left, as notes."""
    found = inspect(ctx.agent_dir)
    if found is None or found.store is None:
        return []
    new = store_path(ctx.agent_dir)
    if found.problem is not None:
        return [f"{found.problem}: the approvals in it were not moved to {new}, nor trusted."]
    text = found.store.read_text(encoding="utf-8")
    if os.path.lexists(new):
        return _retire(ctx, found, found.store, text)
    _move(ctx, found.store, bool(found.others), text)
    note = f"Moved the approvals store from {found.store} to {new} (`ext undo` moves it back)"
    return [_folder_note(note, found)]


def only_old(agent_dir: Path, found: HooksFolder) -> list[str] | None:
    """Projects the old store approves and the new one does not know; None: one is unreadable.

    The new store is the newer word: a project it holds, at any hash, supersedes the old entry.
    """
    from installer.consent.record import CorruptRecord, parse_document
    from installer.consent.store import read_store

    if found.store is None:
        return []
    try:
        old = parse_document(found.store.read_text(encoding="utf-8"))
        new = read_store(agent_dir).approvals
    except (OSError, UnicodeDecodeError, CorruptRecord, ExtError):
        return None
    return sorted(k for k in old if k not in new)


def settle_fix(found: HooksFolder, projects: list[str] | None) -> str:
    """How to settle an old store that holds what the new one lacks (or cannot be read)."""
    from installer.ground.shellword import shell_word

    aside = f"mv {shell_word(Path(found.path))} ~/pi-hooks.old"
    if not projects:
        return f"compare it with ext consent list, then {aside}"
    again = "; ".join(f"ext consent approve {shell_word(Path(p))}" for p in projects)
    return (
        f"to keep them, review and approve them again ({again}: the next ext consent "
        f"command then retires the old store); to drop them, {aside}"
    )


def _retire(ctx: Context, found: HooksFolder, old: Path, text: str) -> list[str]:
    """Both stores exist: drop the old one when the new one holds all it approves."""
    projects = only_old(ctx.agent_dir, found)
    if projects:
        listed = ", ".join(projects)
        return [
            f"{old} was not moved: {store_path(ctx.agent_dir)} exists already, and the "
            f"old store alone approves {listed}; pi warns while it is there. "
            f"To settle it: {settle_fix(found, projects)}."
        ]
    if projects is None:
        return [
            f"{old} was not moved: {store_path(ctx.agent_dir)} exists already, and one "
            f"of them cannot be read; pi warns while it is there. "
            f"To settle it: {settle_fix(found, None)}."
        ]
    _move(ctx, old, bool(found.others), text, keep_new=True)
    note = (
        f"Removed the old approvals store {old}: it holds no approval that "
        f"{store_path(ctx.agent_dir)} lacks (`ext undo` puts it back)"
    )
    return [_folder_note(note, found)]


def _folder_note(note: str, found: HooksFolder) -> str:
    if found.others:
        return f"{note}; {found.path} holds other files, so it stays and pi still warns."
    return f"{note}, and removed {found.path}, which pi warned about at every start."


def _move(ctx: Context, old: Path, keep_folder: bool, text: str, keep_new: bool = False) -> None:
    """Move the old store's text to the new place (unless keep_new), then remove it, journaled:
    a plan no one is shown (the notes say what was done), carried out by the executor's table."""
    from installer.engine.executor import execute
    from installer.engine.plan import Action, FileText, Plan

    def rel(path: Path) -> str:
        return str(path.relative_to(ctx.agent_dir))

    actions = []
    if not keep_new:
        new = store_path(ctx.agent_dir)
        actions.append(Action("create", rel(new), payload=FileText(None, text, folders=True)))
    actions.append(Action("prune", rel(old), payload=FileText(text, None)))
    if not keep_folder:  # its lock, an empty file, goes with it
        lock = FileText(None, None, strays=(f".{FILENAME}.lock",))
        actions.append(Action("rmdir", LEGACY_FOLDER, payload=lock))
    from installer.engine.lock import agent_lock

    with agent_lock(ctx.agent_dir):  # a journal is written under the lock: it says who works
        execute(ctx, Plan("consent move", tuple(actions), of_set=False))


def _unsafe(folder: Path, info: os.stat_result) -> str | None:
    store = folder / FILENAME
    for path, st in ((folder, info), (store, os.lstat(store))):
        if stat.S_ISLNK(st.st_mode):
            return f"{path} is a symlink"
        if path == store and not stat.S_ISREG(st.st_mode):  # a FIFO would block its read
            return f"{path} is not a regular file"
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            return f"{path} is owned by another user (uid {st.st_uid})"
        if stat.S_IMODE(st.st_mode) & 0o022:
            return f"{path} is writable by other users (mode {stat.S_IMODE(st.st_mode):04o})"
    return None
